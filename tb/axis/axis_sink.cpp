#include "axis/axis_sink.hpp"

namespace cosim::tb::axis {

template class BasicSink<8>;

}  // namespace cosim::tb::axis
