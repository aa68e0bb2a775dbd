// Small pieces every part of the report page uses: escaping, numbers as
// the page prints them, a JSON value as table text.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

namespace cosim::tb::report_html {

// Below this SNR a network's (or a layer's) output is mostly noise,
// whatever the RTL's bits: the page marks it.
constexpr double kUsableSnrDb = 10.0;

// Text safe in HTML / SVG content and attribute values.
std::string escape(const std::string& s);
// 1234567 -> "1 234 567"; fractions with `precision` digits.
std::string number(double v, int precision = 0);
std::string percent(double fraction, int precision = 1);  // 0.123 -> "12.3 %"
// A scalar as text ("-" for null, yes / no for booleans); objects and
// arrays as compact JSON.
std::string value_text(const nlohmann::json& v);
// A register's value as 0x%08x (anything else as value_text, escaped).
std::string hex32(const nlohmann::json& v);
// A lane / state name as a CSS-safe token ("wait load->compute" -> "wait-load-compute").
std::string token(const std::string& s);

}  // namespace cosim::tb::report_html
