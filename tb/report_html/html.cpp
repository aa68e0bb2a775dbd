#include "report_html/html.hpp"

#include <cctype>
#include <cmath>
#include <cstdio>
#include <iomanip>
#include <sstream>

namespace cosim::tb::report_html {

std::string escape(const std::string& s) {
  std::string o;
  o.reserve(s.size());
  for (char c : s) {
    switch (c) {
      case '&': o += "&amp;"; break;
      case '<': o += "&lt;"; break;
      case '>': o += "&gt;"; break;
      case '"': o += "&quot;"; break;
      case '\'': o += "&#39;"; break;
      default: o += c;
    }
  }
  return o;
}

namespace {

// The digits of a whole number grouped by three (thin spaces), with its sign and fraction.
std::string grouped(const std::string& whole, bool negative, const std::string& frac) {
  std::string g;
  for (std::size_t i = 0; i < whole.size(); ++i) {
    if (i > 0 && (whole.size() - i) % 3 == 0) g += "\u2009";  // thin space
    g += whole[i];
  }
  return (negative ? "-" : "") + g + frac;
}

}  // namespace

std::string number(double v, int precision) {
  if (!std::isfinite(v)) return std::isnan(v) ? "nan" : v > 0 ? "inf" : "-inf";
  std::ostringstream os;
  os << std::fixed << std::setprecision(precision) << std::fabs(v);
  std::string s = os.str();
  const std::size_t dot = s.find('.');
  return grouped(s.substr(0, dot), v < 0, dot == std::string::npos ? "" : s.substr(dot));
}

std::string percent(double fraction, int precision) { return number(fraction * 100.0, precision) + " %"; }

std::string value_text(const nlohmann::json& v) {
  if (v.is_null()) return "-";
  if (v.is_boolean()) return v.get<bool>() ? "yes" : "no";
  if (v.is_string()) return v.get<std::string>();
  if (v.is_number_unsigned()) return grouped(std::to_string(v.get<uint64_t>()), false, "");  // exactly, 64 bits too
  if (v.is_number_integer()) {
    const std::string s = std::to_string(v.get<int64_t>());
    return s[0] == '-' ? grouped(s.substr(1), true, "") : grouped(s, false, "");
  }
  if (v.is_number_float()) {
    const double d = v.get<double>();
    return d == std::floor(d) && std::fabs(d) < 1e15 ? number(d) : number(d, std::fabs(d) < 10 ? 4 : 2);
  }
  return v.dump();
}

std::string hex32(const nlohmann::json& v) {
  if (!v.is_number_unsigned()) return escape(value_text(v));
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%08llx", static_cast<unsigned long long>(v.get<uint64_t>()));
  return buf;
}

std::string token(const std::string& s) {
  std::string t;
  for (char c : s) {
    if (std::isalnum(static_cast<unsigned char>(c))) t += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    else if (!t.empty() && t.back() != '-') t += '-';
  }
  while (!t.empty() && t.back() == '-') t.pop_back();
  return t.empty() ? "x" : t;
}

}  // namespace cosim::tb::report_html
