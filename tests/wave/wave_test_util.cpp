#include "wave_test_util.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace fs = std::filesystem;

namespace wavetest {

int run(const std::string& cmd, const std::string& log) {
  const std::string full = log.empty() ? cmd + " > /dev/null 2>&1" : cmd + " > '" + log + "' 2>&1";
  const int st = std::system(full.c_str());
  return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

std::string Vcd::at(const std::string& name, uint64_t time) const {
  const auto i = id.find(name);
  if (i == id.end()) throw std::runtime_error("VCD has no signal " + name);
  const auto c = changes.find(i->second);
  std::string v;
  if (c != changes.end()) {
    for (const auto& [t, val] : c->second) {
      if (t > time) break;
      v = val;
    }
  }
  if (v.empty()) throw std::runtime_error("VCD: no value of " + name + " at " + std::to_string(time));
  return v;
}

uint64_t Vcd::at_u64(const std::string& name, uint64_t time) const {
  const std::string v = at(name, time);
  uint64_t x = 0;
  for (char ch : v) x = (x << 1) | (ch == '1' ? 1u : 0u);
  return x;
}

Vcd read_fst(const std::string& fst) {
  const std::string cmd = "fst2vcd -f '" + fst + "' 2>/dev/null";
  FILE* p = popen(cmd.c_str(), "r");
  if (p == nullptr) throw std::runtime_error("cannot run fst2vcd");
  Vcd v;
  std::vector<std::string> scope;
  bool header = true, in_timescale = false;
  uint64_t now = 0;
  char buf[1 << 16];
  std::string line;
  while (fgets(buf, sizeof buf, p) != nullptr) {
    line = buf;
    while (!line.empty() && (line.back() == '\n' || line.back() == '\r')) line.pop_back();
    if (line.empty()) continue;
    if (header) {
      std::istringstream is(line);
      std::string kw;
      is >> kw;
      if (in_timescale) {
        if (kw == "$end") in_timescale = false;
        else v.timescale = kw;
      } else if (kw == "$timescale") {
        in_timescale = true;
      } else if (kw == "$scope") {
        std::string type, name;
        is >> type >> name;
        scope.push_back(name);
      } else if (kw == "$upscope") {
        if (!scope.empty()) scope.pop_back();
      } else if (kw == "$var") {
        std::string type, id, name;
        int width = 0;
        is >> type >> width >> id >> name;
        std::string full;
        for (const auto& s : scope) full += s + ".";
        full += name;
        if (!v.id.count(full)) v.names.push_back(full);
        v.id[full] = id;
        v.width[full] = width;
      } else if (kw == "$enddefinitions") {
        header = false;
      }
      continue;
    }
    const char c0 = line[0];
    if (c0 == '#') {
      now = std::stoull(line.substr(1));
      v.times.push_back(now);
    } else if (c0 == 'b' || c0 == 'B') {
      const auto sp = line.find(' ');
      v.changes[line.substr(sp + 1)].emplace_back(now, line.substr(1, sp - 1));
    } else if (c0 == '0' || c0 == '1' || c0 == 'x' || c0 == 'z') {
      v.changes[line.substr(1)].emplace_back(now, std::string(1, c0));
    }
  }
  const int st = pclose(p);
  if (!WIFEXITED(st) || WEXITSTATUS(st) != 0 || v.names.empty()) {
    throw std::runtime_error("fst2vcd failed on " + fst);
  }
  return v;
}

nlohmann::json read_json(const std::string& path) {
  std::ifstream f(path);
  if (!f) throw std::runtime_error("cannot read " + path);
  nlohmann::json j;
  f >> j;
  return j;
}

std::string scenario(const std::string& name) { return std::string(COSIM_SOURCE_DIR) + "/scenarios/" + name + ".yaml"; }

int cosim_run(const std::string& binary, const std::string& scen, const std::string& dir, const std::string& args) {
  return run(binary + " run " + scenario(scen) + " --out " + dir + " " + args, dir + ".log");
}

}  // namespace wavetest
