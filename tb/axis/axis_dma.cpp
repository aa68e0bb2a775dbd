#include "axis/axis_dma.hpp"

namespace cosim::tb::axis {

template class BasicMm2sDma<8>;
template class BasicS2mmDma<8>;

}  // namespace cosim::tb::axis
