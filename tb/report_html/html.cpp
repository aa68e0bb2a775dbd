#include "report_html/html.hpp"

#include <cctype>
#include <cmath>
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

std::string number(double v, int precision) {
  if (!std::isfinite(v)) return std::isnan(v) ? "nan" : v > 0 ? "inf" : "-inf";
  std::ostringstream os;
  os << std::fixed << std::setprecision(precision) << std::fabs(v);
  std::string s = os.str();
  const std::size_t dot = s.find('.');
  std::string whole = s.substr(0, dot), frac = dot == std::string::npos ? "" : s.substr(dot);
  std::string grouped;
  for (std::size_t i = 0; i < whole.size(); ++i) {
    if (i > 0 && (whole.size() - i) % 3 == 0) grouped += "\u2009";  // thin space
    grouped += whole[i];
  }
  return (v < 0 ? "-" : "") + grouped + frac;
}

std::string percent(double fraction, int precision) { return number(fraction * 100.0, precision) + " %"; }

std::string value_text(const nlohmann::json& v) {
  if (v.is_null()) return "-";
  if (v.is_boolean()) return v.get<bool>() ? "yes" : "no";
  if (v.is_string()) return v.get<std::string>();
  if (v.is_number_integer() || v.is_number_unsigned()) return number(v.get<double>());
  if (v.is_number_float()) {
    const double d = v.get<double>();
    return d == std::floor(d) && std::fabs(d) < 1e15 ? number(d) : number(d, std::fabs(d) < 10 ? 4 : 2);
  }
  return v.dump();
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
