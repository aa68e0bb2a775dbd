#include "vta/vta_schema.hpp"

namespace cosim::tb::vta {

using scenario::Schema;

Schema compile_schema() {
  return Schema::map()
      .optional("threads", Schema::integer(1, 2), "2")
      .optional("tile_rows", Schema::integer(0, 4096), "0")
      .optional("tile_cols", Schema::integer(0, 4096), "0")
      .optional("oc_blocks", Schema::integer(0, 4096), "0")
      .optional("wgt_double_buffer", Schema::boolean(), "true")
      .optional("first_part_rows", Schema::integer(0, 4096), "2")
      .optional("stream", Schema::boolean(), "true");
}

namespace {
// `fault`: a hang the testbench must diagnose (tb/vta/README.md).
Schema fault_schema() { return Schema::one_of({"none", "no_finish", "deadlock"}); }
}  // namespace

Schema add_schema() {
  namespace ss = scenario::schemas;
  return Schema::map()
        .required("shapes", Schema::map()
                                .required("input1", Schema::shape(1, 4))
                                .required("input2", Schema::shape(1, 4)))
        .required("quant", Schema::map()
                               .required("input1", ss::quant_tensor())
                               .required("input2", ss::quant_tensor())
                               .required("output", ss::quant_tensor()))
        .optional("data",
                  Schema::map()
                      .optional("input1", ss::data_source(), "random")
                      .optional("input2", ss::data_source(), "random"),
                  "{}")
        .optional("compile", compile_schema(), "{}")
        .optional("fault", fault_schema(), "none");
}

Schema conv2d_schema() {
  namespace ss = scenario::schemas;
  const Schema pair = Schema::any_of({Schema::integer(1, 64), Schema::list(Schema::integer(1, 64), 2, 2)});
  return Schema::map()
      .required("shapes", Schema::map()
                              .required("input", Schema::shape(4, 4))
                              .optional("filter", Schema::shape(4, 4))
                              .optional("kernel", pair)
                              .optional("out_channels", Schema::integer(1, 1 << 16)))
      .optional("params",
                Schema::map()
                    .optional("stride", pair, "1")
                    .optional("padding", Schema::one_of({"same", "valid"}), "same")
                    .optional("activation", Schema::one_of({"none", "relu", "relu6"}), "none"),
                "{}")
      .required("quant", Schema::map()
                             .required("input", ss::quant_tensor())
                             .required("output", ss::quant_tensor())
                             .optional("filter_scales", ss::filter_scales(), "random"))
      .optional("data",
                Schema::map()
                    .optional("input", ss::data_source(), "random")
                    .optional("filter", ss::data_source(), "{random: {min: -127, max: 127}}")
                    .optional("bias", Schema::any_of({Schema::one_of({"none"}), ss::data_source()}),
                              "{random: {min: -4096, max: 4096}}"),
                "{}")
      .optional("compile", compile_schema(), "{}")
      .optional("fault", fault_schema(), "none");
}

}  // namespace cosim::tb::vta
