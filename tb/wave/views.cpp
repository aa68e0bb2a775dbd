// The prepared GTKWave views, one per DUT: what a reader debugging that
// accelerator looks at first, grouped by unit. Patterns are resolved against
// the FST when the .gtkw is written, so a signal the dump lacks (a shallow
// --trace-depth, a renamed register) is left out instead of breaking the view.
#include <map>

#include "wave/gtkw.hpp"

namespace cosim::wave {

namespace {

using F = Format;

ViewGroup group(std::string name, std::vector<ViewSignal> s, bool collapsed = false) {
  return ViewGroup{std::move(name), std::move(s), collapsed};
}

// Status signals, the register bus every DUT has (rtl/common/cosim_reg_slave.sv,
// ports reg_*), then `tail`.
std::vector<ViewSignal> with_reg_bus(std::vector<ViewSignal> s, const std::vector<ViewSignal>& tail = {}) {
  for (const char* n : {"reg_req_valid_i", "reg_req_ready_o", "reg_write_i", "reg_addr_i", "reg_wdata_i",
                        "reg_rsp_valid_o", "reg_rsp_ready_i", "reg_rdata_o"}) {
    s.push_back({n});
  }
  s.insert(s.end(), tail.begin(), tail.end());
  return s;
}

// AXI4 master ports named <prefix>_<channel><field><suffix> (m_axi_arvalid_o ...).
std::vector<ViewGroup> axi_groups(const std::string& p) {
  return {group("AXI read address",
                {{p + "arvalid_o"}, {p + "arready_i"}, {p + "araddr_o"}, {p + "arlen_o", F::kDec}, {p + "arid_o"}}),
          group("AXI read data", {{p + "rvalid_i"}, {p + "rready_o"}, {p + "rlast_i"}, {p + "rid_i"}, {p + "rresp_i"},
                                  {p + "rdata_i"}}),
          group("AXI write address",
                {{p + "awvalid_o"}, {p + "awready_i"}, {p + "awaddr_o"}, {p + "awlen_o", F::kDec}, {p + "awid_o"}}),
          group("AXI write data", {{p + "wvalid_o"}, {p + "wready_i"}, {p + "wlast_o"}, {p + "wstrb_o"}, {p + "wdata_o"}}),
          group("AXI write response", {{p + "bvalid_i"}, {p + "bready_o"}, {p + "bresp_i"}, {p + "bid_i"}})};
}

View tf2_view() {
  View v;
  v.dut = "tf2";
  v.root = "tf2";
  const std::string t = "tf2_top.";
  v.groups = {
      group("clock, status, registers",
            with_reg_bus({{"clk_i"}, {"rst_ni"}, {"busy_o"}, {"done_o"}, {"error_o"}, {"err_info_o"}})),
      group("controller (descriptor, output group)",
            {{t + "u_ctrl.state_q", F::kHex, "tf2_ctrl_state"},
             {t + "u_ctrl.idx_q", F::kDec},
             {t + "u_ctrl.fg_q", F::kDec},
             {t + "u_ctrl.sg_q", F::kDec},
             {t + "u_ctrl.bank_full_q", F::kBin},
             {t + "u_ctrl.feat_done_q"},
             {t + "u_ctrl.sch_run_q"}}),
      group("feature loader",
            {{t + "u_feat_ld.start_i"}, {t + "u_feat_ld.addr_i"}, {t + "u_feat_ld.words_i", F::kDec},
             {t + "u_feat_ld.we_o"}, {t + "u_feat_ld.waddr_o", F::kDec}, {t + "u_feat_ld.done_o"},
             {t + "u_feat_ld.err_o"}}),
      group("filter loader",
            {{t + "u_filt_ld.state_q", F::kHex, "tf2_filt_state"}, {t + "u_filt_ld.bank_q"},
             {t + "u_filt_ld.oc0_i", F::kDec}, {t + "u_filt_ld.pe_q", F::kDec}, {t + "u_filt_ld.pos_q", F::kDec},
             {t + "u_filt_ld.pw_valid_o"}, {t + "u_filt_ld.cw_valid_o"}, {t + "u_filt_ld.done_o"},
             {t + "u_filt_ld.code_err_o"}}),
      group("scheduler (output pixel being computed)",
            {{t + "u_sched.run_q"}, {t + "u_sched.oc0_q", F::kDec}, {t + "u_sched.y_q", F::kDec},
             {t + "u_sched.x0_q", F::kDec}, {t + "u_sched.cg_q", F::kDec}, {t + "u_sched.ky_q", F::kDec},
             {t + "u_sched.kx0_q", F::kDec}, {t + "u_sched.adv"}, {t + "u_sched.s1_valid_q"},
             {t + "u_sched.s2_valid_q"}, {t + "u_sched.first"}, {t + "u_sched.last"}, {t + "pe_busy"},
             {t + "filt_wait"}, {t + "out_wait"}}),
      group("PE array (per PE: lane sums, accumulators)",
            {{t + "u_pe_array.s1_valid_i"},
             {t + "u_pe_array.s2_valid_i"},
             {t + "u_pe_array.s2_first_i"},
             {t + "u_pe_array.s2_last_i"},
             {t + "u_pe_array.g_pe[*].u_pe.lane_sum_q"},
             {t + "u_pe_array.g_pe[*].u_pe.u_adder.acc_q"}},
            true),
      group("output slot -> writer",
            {{t + "u_sched.slot_valid_q"}, {t + "slot_pop"}, {t + "u_sched.slot_oc0_q", F::kDec},
             {t + "u_sched.slot_y_q", F::kDec}, {t + "u_sched.slot_x0_q", F::kDec},
             {t + "u_sched.slot_ncols_q", F::kDec}}),
      group("writer (requantise, AXI write)",
            {{t + "u_writer.state_q", F::kHex, "tf2_wr_state"}, {t + "u_writer.addr_q"}, {t + "u_writer.col_q", F::kDec},
             {t + "u_writer.left_q", F::kDec}, {t + "u_writer.outst_q", F::kDec}, {t + "u_writer.err_o"}}),
      group("read arbiter", {{t + "u_rd_arb.busy_q"}, {t + "u_rd_arb.owner_q", F::kHex, "tf2_rd_client"},
                             {t + "u_rd_arb.ar_valid_i", F::kBin}, {t + "u_rd_arb.ar_ready_o", F::kBin}}),
  };
  for (ViewGroup& g : axi_groups("m_axi_")) v.groups.push_back(std::move(g));
  v.filters["tf2_ctrl_state"] = {{0, "StIdle"}, {1, "StFetch"}, {2, "StFetchWait"}, {3, "StCheck"},
                                 {4, "StRun"},  {5, "StDrain"}, {6, "StDone"}};
  v.filters["tf2_filt_state"] = {{0, "StIdle"}, {1, "StPrmCmd"}, {2, "StPrm"}, {3, "StWgtCmd"}, {4, "StWgt"}};
  v.filters["tf2_wr_state"] = {{0, "StIdle"}, {1, "StResCmd"}, {2, "StRes"}, {3, "StAw"}, {4, "StW"}};
  v.filters["tf2_rd_client"] = {{0, "desc_fetch"}, {1, "feature_loader"}, {2, "filter_loader"}, {3, "writer_residual"}};
  return v;
}

View tinydnn_view() {
  View v;
  v.dut = "tinydnn";
  v.root = "tinydnn";
  const std::string t = "tinydnn_top.";
  v.groups = {
      group("clock, status, registers",
            with_reg_bus({{"clk_i"}, {"rst_ni"}, {"busy_o"}, {"done_o"}, {"mac_step_o"}})),
      group("input stream (s_axis)",
            {{"s_axis_tvalid_i"}, {"s_axis_tready_o"}, {"s_axis_tlast_i"}, {"s_axis_tdata_i"}}),
      group("output stream (m_axis)",
            {{"m_axis_tvalid_o"}, {"m_axis_tready_i"}, {"m_axis_tlast_o"}, {"m_axis_tdata_o"}}),
      group("batch controller",
            {{t + "u_batch.state_q", F::kHex, "tinydnn_batch_state"}, {t + "u_batch.rx_cnt_q", F::kDec},
             {t + "u_batch.cmp_cnt_q", F::kDec}, {t + "u_batch.tx_cnt_q", F::kDec}, {t + "u_batch.rx_busy_q"},
             {t + "u_batch.cmp_busy_q"}, {t + "u_batch.tx_busy_q"}, {t + "u_batch.src_full_q", F::kBin},
             {t + "u_batch.dst_full_q", F::kBin}, {t + "u_batch.err_q"}}),
      group("receiver (stream -> buffers)",
            {{t + "u_rx.active_q"}, {t + "u_rx.kind_q", F::kHex, "tinydnn_rx_kind"}, {t + "u_rx.take_beat"},
             {t + "u_rx.src_cnt_q", F::kDec}, {t + "u_rx.core_q", F::kDec}, {t + "u_rx.core_cnt_q", F::kDec},
             {t + "src_we"}, {t + "src_waddr", F::kDec}}),
      group("sample controller (output pixel, kernel tap)",
            {{t + "u_ctl.run_q"}, {t + "u_ctl.oy_q", F::kDec}, {t + "u_ctl.ox_q", F::kDec}, {t + "u_ctl.ch_q", F::kDec},
             {t + "u_ctl.ky_q", F::kDec}, {t + "u_ctl.kx_q", F::kDec}, {t + "u_ctl.c_q", F::kDec},
             {t + "u_ctl.stall"}, {t + "u_ctl.issue"}}),
      group("pipeline valid bits",
            {{t + "u_ctl.p_valid_q"}, {t + "step_valid"}, {t + "step_first"}, {t + "step_last"}, {t + "step_bias"},
             {t + "step_pos", F::kDec}, {t + "u_post.r3_valid_q"}, {t + "u_post.r4_valid_q"},
             {t + "u_post.u_norm.valid_q"}, {t + "dst_we"}, {t + "dst_waddr", F::kDec}}),
      group("MAC cores (accumulators)", {{t + "g_core[*].u_core.sum_q"}, {t + "g_core[*].u_core.hold_q"}}, true),
      group("normaliser / post",
            {{t + "u_post.busy_q"}, {t + "u_post.idx_q", F::kDec}, {t + "u_post.pos_q", F::kDec},
             {t + "dst_wdata"}}),
      group("sender (buffers -> stream)", {{t + "tx_start"}, {t + "tx_count", F::kDec}, {t + "tx_addr", F::kDec},
                                           {t + "tx_done"}}),
  };
  v.filters["tinydnn_batch_state"] = {{0, "StIdle"}, {1, "StLoad"}, {2, "StRun"}};
  v.filters["tinydnn_rx_kind"] = {{0, "RxSample"}, {1, "RxWeights"}, {2, "RxBias"}};
  return v;
}

View testdut_view() {
  View v;
  v.dut = "testdut";
  v.root = "testdut";
  v.groups = {group("clock, status, registers",
                    with_reg_bus({{"clk_i"}, {"rst_ni"}, {"done_o"}, {"state_o"}, {"beats_left_o", F::kDec}}))};
  for (ViewGroup& g : axi_groups("m_axi_")) v.groups.push_back(std::move(g));
  return v;
}

View vta_view() {
  View v;
  v.dut = "vta";
  v.root = "vta";
  const std::string t = "vta_top.";
  // Per engine: what it holds (eng_state_e, the opcode of the instruction it
  // executes or waits with, its dependence flags), its queue, its counters.
  auto engine = [&](const std::string& name, const std::string& e, const std::string& q, const std::string& u,
                    std::vector<ViewSignal> extra) {
    std::vector<ViewSignal> s = {{t + e + "_state", F::kHex, "vta_eng_state"},
                                 {t + e + "_op", F::kHex, "vta_opcode"},
                                 {t + e + "_pops", F::kBin},
                                 {t + u + ".hdr_q", F::kBin},
                                 {t + u + ".state_q", F::kHex, "vta_" + name + "_state"},
                                 {t + q + "_valid"},
                                 {t + q + "_ready"},
                                 {t + q + "_count", F::kDec},
                                 {t + q + "_insn"}};
    for (auto& x : extra) s.push_back(std::move(x));
    return group(name + " engine (current instruction: op, dependence flags, queue head)", std::move(s));
  };
  v.groups = {
      group("clock, status, registers",
            with_reg_bus({{"clk_i"}, {"rst_ni"}, {"done_o"}, {"error_o"}},
                         {{t + "running"}, {t + "err_code_q", F::kHex}, {t + "err_engine_q", F::kHex}})),
      group("fetch (instruction stream)",
            {{t + "f_remaining", F::kDec}, {t + "u_fetch.to_request_q", F::kDec}, {t + "u_fetch.to_route_q", F::kDec},
             {t + "u_fetch.outstanding_q", F::kDec}, {t + "lq_in_valid"}, {t + "cq_in_valid"}, {t + "sq_in_valid"},
             {t + "f_insn"}}),
      engine("load", "l", "lq", "u_load", {{t + "l_busy"}, {t + "l_stall"}, {t + "u_load.wr_mt", F::kHex, "vta_mem"}}),
      engine("compute", "c", "cq", "u_compute",
             {{t + "u_compute.is_alu_q"}, {t + "u_compute.reset_q"}, {t + "u_compute.uop_bgn_q", F::kDec},
              {t + "u_compute.uop_end_q", F::kDec}, {t + "u_compute.iter_out_q", F::kDec},
              {t + "u_compute.iter_in_q", F::kDec}, {t + "c_stall_l2c"}, {t + "c_stall_s2c"}, {t + "c_cload_busy"}}),
      engine("store", "s", "sq", "u_store",
             {{t + "s_busy"}, {t + "s_stall"}, {t + "u_store.ag_y_q", F::kDec}, {t + "u_store.y_size_q", F::kDec},
              {t + "u_store.outstanding_q", F::kDec}}),
      group("token queues (load->compute, compute->load, compute->store, store->compute)",
            {{t + "l2c_push"}, {t + "l2c_pop"}, {t + "l2c_count", F::kDec}, {t + "c2l_push"}, {t + "c2l_pop"},
             {t + "c2l_count", F::kDec}, {t + "c2s_push"}, {t + "c2s_pop"}, {t + "c2s_count", F::kDec},
             {t + "s2c_push"}, {t + "s2c_pop"}, {t + "s2c_count", F::kDec}}),
      group("GEMM activity",
            {{t + "c_gemm_busy"}, {t + "u_compute.do_mac"}, {t + "u_compute.u_q", F::kDec}, {t + "u_compute.i_q", F::kDec},
             {t + "u_compute.j_q", F::kDec}, {t + "u_compute.dst_q", F::kDec}, {t + "u_compute.src_q", F::kDec},
             {t + "u_compute.wgt_q", F::kDec}, {t + "inp_re"}, {t + "inp_raddr", F::kDec}, {t + "wgt_re"},
             {t + "wgt_raddr", F::kDec}, {t + "acc_we"}, {t + "acc_waddr", F::kDec}}),
      group("ALU activity",
            {{t + "c_alu_busy"}, {t + "u_compute.do_alu"}, {t + "u_compute.alu_op_q", F::kHex, "vta_alu_op"},
             {t + "u_compute.use_imm_q"}, {t + "u_compute.imm_q", F::kSigned}, {t + "u_compute.alu_x", F::kSigned},
             {t + "u_compute.alu_y", F::kSigned}}),
      group("buffer writes (INP, WGT, UOP)", {{t + "inp_we"}, {t + "inp_waddr", F::kDec}, {t + "wgt_we"},
                                               {t + "wgt_waddr", F::kDec}, {t + "uop_we"}, {t + "uop_waddr", F::kDec}},
            true),
  };
  for (ViewGroup& g : axi_groups("m_axi_")) v.groups.push_back(std::move(g));
  v.filters["vta_opcode"] = {{0, "LOAD"}, {1, "STORE"}, {2, "GEMM"}, {3, "FINISH"}, {4, "ALU"}};
  v.filters["vta_eng_state"] = {{0, "EngIdle"}, {1, "EngWait"}, {2, "EngBusy"}};
  v.filters["vta_mem"] = {{0, "UOP"}, {1, "WGT"}, {2, "INP"}, {3, "ACC"}, {4, "OUT"}, {5, "ACC8"}};
  v.filters["vta_alu_op"] = {{0, "MIN"}, {1, "MAX"}, {2, "ADD"}, {3, "SHR"}, {4, "MUL"}};
  v.filters["vta_load_state"] = {{0, "StIdle"}, {1, "StRun"}, {2, "StDone"}, {3, "StHalt"}};
  v.filters["vta_compute_state"] = {{0, "StIdle"}, {1, "StExec"}, {2, "StLoad"}, {3, "StDone"}, {4, "StHalt"}};
  v.filters["vta_store_state"] = {{0, "StIdle"}, {1, "StRun"}, {2, "StDone"}, {3, "StHalt"}};
  return v;
}

}  // namespace

const View* find_view(const std::string& dut) {
  static const std::map<std::string, View> views = {
      {"tf2", tf2_view()}, {"tinydnn", tinydnn_view()}, {"testdut", testdut_view()}, {"vta", vta_view()}};
  const auto it = views.find(dut);
  return it == views.end() ? nullptr : &it->second;
}

}  // namespace cosim::wave
