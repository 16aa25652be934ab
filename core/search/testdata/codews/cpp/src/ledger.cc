#include "ledger.h"

namespace books {

// Ledger::postEntry records an amount under an account; a zero amount
// is refused.
bool Ledger::postEntry(const std::string& account, long cents) {
  if (cents == 0) {
    return false;
  }
  totals_[account] += cents;
  return true;
}

}  // namespace books
