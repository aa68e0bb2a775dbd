#include "scenario/yaml_load.hpp"

#include <yaml-cpp/eventhandler.h>

#include <cstddef>
#include <sstream>

namespace cosim::scenario {

namespace {

// Counts the parser's events and stops it past the budget.
class EventBudget : public YAML::EventHandler {
 public:
  explicit EventBudget(std::size_t budget) : budget_(budget) {}
  void OnDocumentStart(const YAML::Mark& m) override { spend(m); }
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark& m, YAML::anchor_t) override { spend(m); }
  void OnAlias(const YAML::Mark& m, YAML::anchor_t) override { spend(m); }
  void OnScalar(const YAML::Mark& m, const std::string&, YAML::anchor_t, const std::string&) override { spend(m); }
  void OnSequenceStart(const YAML::Mark& m, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {
    spend(m);
  }
  void OnSequenceEnd() override {}
  void OnMapStart(const YAML::Mark& m, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {
    spend(m);
  }
  void OnMapEnd() override {}

 private:
  void spend(const YAML::Mark& m) {
    if (++spent_ > budget_) {
      throw YAML::ParserException(m, "the parser does not get past this point (a ',' outside [ ] or { }?)");
    }
  }
  std::size_t budget_;
  std::size_t spent_ = 0;
};

void check_parser_ends(const std::string& text) {
  std::istringstream in(text);
  YAML::Parser parser(in);
  EventBudget budget(2 * text.size() + 64);
  while (parser.HandleNextDocument(budget)) {
  }
}

}  // namespace

std::vector<YAML::Node> load_yaml_documents(const std::string& text) {
  check_parser_ends(text);
  return YAML::LoadAll(text);
}

YAML::Node load_yaml(const std::string& text) {
  check_parser_ends(text);
  return YAML::Load(text);
}

}  // namespace cosim::scenario
