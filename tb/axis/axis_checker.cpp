#include "axis/axis_checker.hpp"

namespace cosim::tb::axis {

template class BasicChecker<8>;

}  // namespace cosim::tb::axis
