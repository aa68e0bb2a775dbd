// Checks on a message or a console output: what it must say, and the
// message of the exception a call must throw.
//
//   const std::string msg = what_of<InputError>([&] { parse(bad); });
//   expect_contains(msg, {"bad.yaml:3", "expected an integer"});
#pragma once

#include <gtest/gtest.h>

#include <initializer_list>
#include <string>

namespace cosim::test {

// One check per part: `text` contains it (a failure names the part and
// shows the whole text).
inline void expect_contains(const std::string& text, std::initializer_list<std::string> parts) {
  for (const std::string& p : parts) EXPECT_NE(text.find(p), std::string::npos) << "'" << p << "' not in: " << text;
}

// The what() of the E that `f` throws; "" and a failure when it throws none.
template <class E, class F>
std::string what_of(F&& f) {
  try {
    f();
  } catch (const E& e) {
    return e.what();
  }
  ADD_FAILURE() << "nothing thrown";
  return "";
}

}  // namespace cosim::test
