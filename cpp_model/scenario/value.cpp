#include "scenario/value.hpp"

#include <stdexcept>

#include "common/error.hpp"

namespace cosim::scenario {

std::string Location::str() const {
  if (!override.empty()) return override;
  return file + ":" + std::to_string(line);
}

const Value* Value::find(const std::string& key) const {
  for (const auto& [k, v] : map) {
    if (k == key) return &v;
  }
  return nullptr;
}

const Value& Value::operator[](const std::string& key) const {
  const Value* v = find(key);
  if (v == nullptr) throw std::logic_error("scenario value '" + path + "' has no key '" + key + "'");
  return *v;
}

int64_t Value::as_int() const {
  if (kind != Kind::kInt) fail("expected an integer");
  return i;
}

double Value::as_float() const {
  if (kind == Kind::kInt) return static_cast<double>(i);
  if (kind != Kind::kFloat) fail("expected a number");
  return f;
}

bool Value::as_bool() const {
  if (kind != Kind::kBool) fail("expected true or false");
  return b;
}

const std::string& Value::as_string() const {
  if (kind != Kind::kString) fail("expected a string");
  return s;
}

std::vector<int64_t> Value::as_ints() const {
  if (kind != Kind::kList) fail("expected a list of integers");
  std::vector<int64_t> out;
  for (const Value& v : items) out.push_back(v.as_int());
  return out;
}

std::vector<double> Value::as_floats() const {
  if (kind != Kind::kList) fail("expected a list of numbers");
  std::vector<double> out;
  for (const Value& v : items) out.push_back(v.as_float());
  return out;
}

void Value::fail(const std::string& message) const {
  throw InputError(one_line(loc.str() + ": '" + path + "': " + message));
}

}  // namespace cosim::scenario
