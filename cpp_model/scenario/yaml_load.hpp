// YAML text to yaml-cpp nodes, with the parser's work bounded.
//
// yaml-cpp 0.7 (Debian's) never returns on some malformed inputs: a ','
// where no flow collection is open at a document's top level (", x", or
// "[1]\n,") makes it emit empty documents forever, allocating until memory
// runs out. Every YAML text a user gives (scenario files, --set values, the
// scenario listing) goes through these functions, which first walk the
// parser's events with a budget proportional to the text (a well-formed
// document has at most a couple of events per byte) and throw
// YAML::ParserException at the place the parser got stuck.
#pragma once

#include <yaml-cpp/yaml.h>

#include <string>
#include <vector>

namespace cosim::scenario {

// Every document of `text` (YAML::LoadAll, bounded).
std::vector<YAML::Node> load_yaml_documents(const std::string& text);
// The first document of `text` (YAML::Load, bounded).
YAML::Node load_yaml(const std::string& text);

}  // namespace cosim::scenario
