// A trace is the seam between a target compiler and the testbench: the list of
// host actions (memory loads, register writes and reads, stream sends,
// wait-for-done or for the interrupt, checks) that drive one DUT run. It lives on disk as a directory holding
// trace.txt (one step per line, see README.md) plus binary blobs, so it can be
// inspected and replayed without the compiler.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "tensor/tensor.hpp"

namespace cosim::trace {

// trace.txt's header `cosim-trace VERSION`. Version 2 adds blob ranges
// (FILE@OFFSET:LENGTH: many blobs packed in one file), which write_trace
// uses for a trace of more than kPackAbove blobs; it writes version 1
// otherwise. read_trace reads both.
constexpr int kFormatVersion = 2;
constexpr int kOldestFormatVersion = 1;
constexpr std::size_t kPackAbove = 64;

// What a check's bytes mean, so a scoreboard can name coordinates.
struct TensorDesc {
  std::string name;
  DType dtype = DType::kInt8;
  std::vector<int64_t> shape;
  Layout layout = Layout::kAny;
  // > 0: the 4-D NHWC tensor sits in memory in channel blocks of this many,
  // [N][ceil(C/B)][H][W][B] (LAYOUT token nchw<B>c, e.g. the VTA's nchw16c);
  // the shape and the expected blob stay NHWC and the padding lanes are not
  // checked. 0: dense, row-major over `shape`.
  int channel_block = 0;
  // > 0: the 4-D NHWC tensor's rows (the W*C elements of one n, h, dense)
  // start this many bytes apart in memory (LAYOUT token nhwc_pitch<P>, e.g.
  // one channel group of a TF2 HC16W map, whose rows interleave with the
  // other groups'); the bytes between rows are not checked. 0: rows adjacent.
  uint64_t row_pitch = 0;

  int64_t numel() const;
  std::size_t nbytes() const;
  // Bytes the tensor spans in memory, and the byte offset of element `flat`
  // (row-major index over `shape`) from the check address.
  std::size_t memory_bytes() const;
  uint64_t memory_offset(int64_t flat) const;
  // Whether an element sits elsewhere than flat * element size (channel
  // blocks or a row pitch): readers gather it through memory_offset.
  bool strided() const { return channel_block > 0 || row_pitch > 0; }
};

enum class Op {
  kMemLoad,      // write `data` to memory at `addr`
  kRegWrite,     // write 32-bit `value` to DUT register offset `addr`
  kStreamSend,   // push `data` into DUT input stream `stream`
  kWaitDone,     // run the DUT until done, at most `value` cycles
  kMemCheck,     // memory at `addr` must equal `data` (described by `tensor`)
  kStreamCheck,  // the next bytes of output stream `stream` must equal `data` (`value` > 0: in packets of
                 // that many bytes, TLAST ending each)
  kMemDump,      // save `value` bytes of memory at `addr` to output file `file`
  // Host steps that read a DUT register (32 bits at offset `addr`):
  kRegCheck,     // (read & `mask`) must equal (`expected` & `mask`); register `reg_name`
  kRegPoll,      // read until (read & `mask`) == (`expected` & `mask`), at most `value` cycles
  kWaitIrq,      // run the DUT until its interrupt output is asserted, at most `value` cycles
};
const char* op_name(Op op);

struct Step {
  Op op = Op::kRegWrite;
  uint64_t addr = 0;
  uint64_t value = 0;
  std::string stream;
  std::string file;  // blob path relative to the trace directory (kMemDump: output name)
  std::vector<uint8_t> data;
  TensorDesc tensor;
  // kRegCheck / kRegPoll: the expected value, the mask of the bits compared,
  // and the register's name (for messages and reports).
  uint32_t expected = 0;
  uint32_t mask = 0;
  std::string reg_name;
  int line = 0;  // line in trace.txt when read from disk, else 0
};

struct Trace {
  std::string target;
  // Testbench knobs and metadata (dram_latency, seed, scenario, op, ...),
  // so a replay runs with the settings it was made with.
  std::map<std::string, std::string> config;
  std::vector<Step> steps;
  // The scenario that made the trace, resolved (its paths absolute), as
  // YAML: scenario.yaml in the directory. Not a step: a replay prepares the
  // workload from it again for its report (layer table, distances, who wrote
  // a diverging element); empty = none (a raw program, in-memory inputs).
  std::string scenario;

  // Builders used by target compilers. `name` only shapes the blob file name.
  void mem_load(uint64_t addr, std::vector<uint8_t> bytes, const std::string& name = "load");
  void reg_write(uint64_t offset, uint32_t value);
  void stream_send(const std::string& stream, std::vector<uint8_t> bytes);
  void wait_done(uint64_t max_cycles);
  // One register read that must give (value & mask) == (expected & mask); a
  // check that can fail. `name` names the register ([A-Za-z0-9_.]+).
  void reg_check(uint32_t offset, uint32_t expected, uint32_t mask, const std::string& name);
  // Reads the register until (value & mask) == (expected & mask); more than
  // `max_cycles` DUT cycles is a timeout.
  void reg_poll(uint32_t offset, uint32_t expected, uint32_t mask, uint64_t max_cycles, const std::string& name);
  // Runs the DUT until its interrupt output is asserted, at most `max_cycles`.
  void wait_irq(uint64_t max_cycles);
  // channel_block > 0: memory holds `expected` (4-D NHWC) in channel blocks
  // (TensorDesc::channel_block).
  void mem_check(uint64_t addr, const Tensor& expected, const std::string& name, int channel_block = 0);
  // A 4-D NHWC `expected` whose rows start `row_pitch` bytes apart in memory
  // (TensorDesc::row_pitch; at least one row's bytes). A pitch of exactly
  // one row is the dense check mem_check makes.
  void mem_check_rows(uint64_t addr, const Tensor& expected, const std::string& name, uint64_t row_pitch);
  // packet_bytes > 0: the stream's packets are that long, TLAST on the last beat of each and of no
  // other (the check's bytes a whole number of them).
  void stream_check(const std::string& stream, const Tensor& expected, const std::string& name,
                    uint64_t packet_bytes = 0);
  void mem_dump(uint64_t addr, uint64_t length, const std::string& file);

  // The expected bytes of a check step as a tensor.
  static Tensor expected_tensor(const Step& check);
};

// Writes dir/trace.txt, dir/blobs/*.bin and, when the trace has one,
// dir/scenario.yaml (creating dir); blob names are assigned here, so
// Step::file is ignored for loads and checks. A trace of more than
// kPackAbove blobs packs them, identical ones once, into files
// blobs/NNN_pack.bin of at most 64 MiB each (unless one blob is larger):
// thousands of small files (a network over 100 inputs wrote 2,900) cost the
// file system more than their bytes, most when a rerun has just deleted them.
void write_trace(const Trace& trace, const std::string& dir);

// Clears the way for write_trace(dir), deleting only what a trace writes:
// dir/trace.txt when it is one (its first line that is not a comment is
// `cosim-trace ...`), a regular file dir/scenario.yaml, and the regular files dir/blobs/NNN_NAME.bin (the names
// write_trace gives blobs: three or more digits, `_`, at most 40 of
// [A-Za-z0-9_-], `.bin`). Everything else stays; the files and links among
// it are returned (paths relative to dir, sorted). A trace.txt that is not a
// trace, or something other than a regular file at a name a trace writes
// (dir, trace.txt, blobs, a blob), is a cosim::InputError naming it, and then
// nothing is deleted. A missing dir is fine (nothing to clear).
std::vector<std::string> clear_trace_dir(const std::string& dir);

// The largest blob a trace may hold (memory image, stream, expected
// tensor); checked against the file's size before it is read. Check tensors
// (with their channel-block padding or row pitch) and mem_dump lengths are
// held to it too, overflow-safe, before anything is allocated.
constexpr uint64_t kMaxBlobBytes = uint64_t{1} << 30;
// A step's cycle budget (wait_done, wait_irq, reg_poll): at most the
// scenario's testbench.timeout_cycles bound.
constexpr uint64_t kMaxCycleBudget = 1000000000000ull;
// trace.txt: a step list, read whole before parsing.
constexpr uint64_t kMaxTraceTextBytes = uint64_t{64} << 20;
// The scenario beside trace.txt (Trace::scenario).
constexpr const char* kScenarioFile = "scenario.yaml";

// Reads a trace directory (trace.txt + blobs/). Every problem is a
// cosim::InputError naming file:line and what was expected. Raw program
// formats of a particular target (e.g. VTA's insn.bin + dram.bin) are read
// by that target's backend, not here (TargetBackend::import_directory).
Trace read_trace(const std::string& dir);

// Text helpers shared with the scenario loader and the CLI.
DType parse_dtype(const std::string& text, bool* ok);
Layout parse_layout(const std::string& text, bool* ok);
const char* layout_name(Layout layout);
std::string shape_string(const std::vector<int64_t>& shape);  // "1,8,8,16"

// A regular file of at most `max_bytes` (InputError otherwise: a device,
// a FIFO, a folder, a larger file); written under a temporary name and
// renamed (cosim::IoError naming the file and errno when it fails).
std::vector<uint8_t> read_file_bytes(const std::string& path, uint64_t max_bytes = kMaxBlobBytes);
void write_file_bytes(const std::string& path, const std::vector<uint8_t>& bytes);

}  // namespace cosim::trace
