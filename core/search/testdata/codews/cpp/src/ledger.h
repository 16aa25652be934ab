#pragma once
#include <map>
#include <string>

namespace books {

class Ledger {
 public:
  bool postEntry(const std::string& account, long cents);

 private:
  std::map<std::string, long> totals_;
};

}  // namespace books
