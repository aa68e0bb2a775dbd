#include "axis/axis_source.hpp"

namespace cosim::tb::axis {

template class BasicSource<8>;

}  // namespace cosim::tb::axis
