#include "vta/raw_program_replay.hpp"

#include <cstdio>
#include <filesystem>

#include "common/error.hpp"
#include "vta/functional_model.hpp"

namespace fs = std::filesystem;

namespace cosim::vta {

bool is_raw_program_dir(const std::string& dir) {
  const fs::path d(dir);
  return !fs::exists(d / "trace.txt") && fs::exists(d / "insn.bin") && fs::exists(d / "dram.bin");
}

RawProgram load_raw_program_dir(const std::string& dir) {
  const fs::path d(dir);
  if (fs::exists(d / "meta")) return read_raw_program_dir(dir);
  const std::vector<uint8_t> insns = read_binary_file((d / "insn.bin").string());
  std::vector<uint8_t> dram = read_binary_file((d / "dram.bin").string());
  if (insns.empty()) throw InputError((d / "insn.bin").string() + ": empty (expected at least one instruction)");
  const uint64_t insn_addr = (dram.size() + 4095) / 4096 * 4096;
  return make_raw_program(insns, std::move(dram), insn_addr);
}

namespace {

// One legal order of the three engines and what the model computed under it.
struct ScheduleRun {
  std::string name;
  std::vector<uint8_t> dram;
  std::vector<std::size_t> order;  // instruction indices as executed
};

// The orders a raw program's model runs under: the stream order (the
// reference), each engine pair's extremes (producers ahead, consumers ahead)
// and a seeded random one. A race-free program gives one image for all.
std::vector<std::pair<std::string, ModelOptions>> schedules(uint64_t max_uops) {
  std::vector<std::pair<std::string, ModelOptions>> s(4);
  s[0].first = "stream order";
  s[1].first = "LOAD > COMPUTE > STORE priority";
  s[1].second.engine_priority = {Engine::kLoad, Engine::kCompute, Engine::kStore};
  s[2].first = "STORE > COMPUTE > LOAD priority";
  s[2].second.engine_priority = {Engine::kStore, Engine::kCompute, Engine::kLoad};
  s[3].first = "random order (schedule seed 1)";
  s[3].second.schedule_seed = 1;
  for (auto& [name, opt] : s) opt.max_uops = max_uops;
  return s;
}

// One line: what was bounded, the bound, how to raise it.
std::string bound_message(const std::string& dir, const RawProgram& program, uint64_t budget, const std::string& what) {
  return dir + ": the functional model (run before the RTL) stops: " + what + "; the bound is the replay's cycle " +
         "budget of " + std::to_string(budget) + " cycles (the core runs at most one uop a cycle, so the RTL could " +
         "not finish either); raise it with a line 'max_cycles N' in " + (fs::path(dir) / "meta").string() +
         (fs::exists(fs::path(dir) / "meta")
              ? std::string()
              : " (beside 'insn_addr " + std::to_string(program.insn_addr) + "', where the instructions sit now)");
}

ScheduleRun run_schedule(const std::string& dir, const RawProgram& program, const std::string& name, uint64_t budget,
                         ModelOptions opt) {
  ScheduleRun r;
  r.name = name;
  opt.on_execute = [&r](std::size_t index, Engine) { r.order.push_back(index); };
  RawProgram model = program;
  try {
    run_raw_program(model, opt);
  } catch (const ModelWorkBoundError& e) {
    throw ModelWorkBoundError(bound_message(dir, program, budget, e.what()));  // a TimeoutError: exit 3
  } catch (const InputError& e) {
    throw InputError(dir + ": the functional model rejects the program" +
                     (name == "stream order" ? std::string() : " under " + name) + ": " + e.what());
  }
  r.dram = std::move(model.dram);
  return r;
}

std::string hex_byte(uint8_t v) {
  static const char* digits = "0123456789abcdef";
  return std::string("0x") + digits[v >> 4] + digits[v & 15];
}

std::string insn_name(const std::vector<Insn>& insns, std::size_t index) {
  return "instruction " + std::to_string(index) + " (" + opcode_name(opcode_of(insns.at(index))) + ")";
}

// The model's final image under the stream order, after checking that the
// other legal orders give the same bytes; InputError "racy program" naming
// the first differing byte, its value under both orders, the STORE(s) that
// write it and where the two orders part.
std::vector<uint8_t> model_image(const std::string& dir, const RawProgram& program, uint64_t budget) {
  const auto all = schedules(budget);
  ScheduleRun ref = run_schedule(dir, program, all[0].first, budget, all[0].second);
  for (std::size_t k = 1; k < all.size(); ++k) {
    std::string rejected;
    ScheduleRun other;
    try {
      other = run_schedule(dir, program, all[k].first, budget, all[k].second);
    } catch (const InputError& e) {
      rejected = e.what();  // accepted in stream order, rejected in another: a race too
    } catch (const ModelWorkBoundError&) {
      throw;  // over the budget: a timeout, whatever the order
    } catch (const TimeoutError& e) {
      rejected = e.what();
    }
    if (rejected.empty() && other.dram == ref.dram) continue;
    std::vector<Insn> insns;
    for (uint32_t i = 0; i < program.insn_count; ++i) {
      insns.push_back(decode(load_word(&program.dram[program.insn_addr + uint64_t{i} * kInsnBytes])));
    }
    std::string msg = dir + ": racy program: the functional model's result depends on the engine order (the "
                      "dependency tokens leave a conflicting access unordered), so no RTL result can be judged; ";
    if (!rejected.empty()) {
      msg += "under " + ref.name + " it runs, under " + other.name + " it fails: " + rejected;
    } else {
      std::size_t a = 0;
      while (a < ref.dram.size() && a < other.dram.size() && ref.dram[a] == other.dram[a]) ++a;
      msg += "first differing DRAM byte " + std::to_string(a);
      char addr[32];
      std::snprintf(addr, sizeof addr, " (0x%llx)", static_cast<unsigned long long>(a));
      msg += addr;
      if (a < ref.dram.size() && a < other.dram.size()) {
        msg += ": " + hex_byte(ref.dram[a]) + " under " + ref.name + ", " + hex_byte(other.dram[a]) + " under " +
               other.name;
      }
      const std::vector<std::size_t> stores = stores_writing(insns, a);
      if (!stores.empty()) {
        msg += ", written by";
        for (std::size_t s : stores) msg += " " + insn_name(insns, s);
      }
    }
    std::size_t step = 0;
    while (step < ref.order.size() && step < other.order.size() && ref.order[step] == other.order[step]) ++step;
    msg += "; the two orders part at step " + std::to_string(step);
    if (step < ref.order.size() && step < other.order.size()) {
      msg += ": " + ref.name + " runs " + insn_name(insns, ref.order[step]) + ", " + other.name + " runs " +
             insn_name(insns, other.order[step]);
    }
    msg += "; add the missing dependency token";
    throw InputError(msg);
  }
  return std::move(ref.dram);
}

}  // namespace

trace::Trace raw_program_trace(const std::string& dir, uint64_t max_cycles) {
  const fs::path d(dir);
  const RawProgram program = load_raw_program_dir(dir);
  const uint64_t budget = program.max_cycles != 0 ? program.max_cycles : max_cycles;
  if (program.insn_count == 0) throw InputError((d / "insn.bin").string() + ": no instructions");
  std::vector<uint8_t> expected;
  std::string source;
  if (fs::exists(d / "dram_expected.bin")) {
    expected = read_binary_file((d / "dram_expected.bin").string());
    // The image may have grown by the instructions placed after it; the part
    // the user's expected image covers must be all of dram.bin.
    const uint64_t image = fs::file_size(d / "dram.bin");
    if (expected.size() != image) {
      throw InputError((d / "dram_expected.bin").string() + ": " + std::to_string(expected.size()) +
                       " bytes, expected " + std::to_string(image) + " (the size of dram.bin)");
    }
    source = "dram_expected.bin";
    // The model does not compute the image, but the work bound holds all the
    // same: a pass over the tokens alone (no data) stops a program the RTL
    // could not finish within the budget before it starts.
    ModelOptions dry;
    dry.max_uops = budget;
    dry.data = false;
    RawProgram copy = program;
    try {
      run_raw_program(copy, dry);
    } catch (const ModelWorkBoundError& e) {
      throw TimeoutError(bound_message(dir, program, budget, e.what()));
    } catch (const std::exception&) {
      // A deadlock or a missing FINISH: the RTL run shows its own diagnosis.
    }
  } else {
    expected = model_image(dir, program, budget);
    source = "functional_model";
  }
  trace::Trace t;
  t.target = "vta";
  t.config["op"] = "program";
  t.config["expected"] = source;
  t.mem_load(0, program.dram, "dram");
  t.reg_write(0x0c, static_cast<uint32_t>(program.insn_addr));
  t.reg_write(0x08, program.insn_count);
  t.reg_write(0x00, 1);
  t.wait_done(budget);
  Tensor e(DType::kInt8, {static_cast<int64_t>(expected.size())});
  e.bytes() = std::move(expected);
  t.mem_check(0, e, "dram");
  t.mem_dump(0, program.dram.size(), "dram_out.bin");
  return t;
}

}  // namespace cosim::vta
