// sample.cpp: a tiny key-value table, to test cutting C++ at definitions.
#include <map>
#include <string>

#define TABLE_LIMIT 64

namespace shop {

using Key = std::string;

enum class Flags { kRefuseEmpty = 1, kCopyKeys = 2 };

// Table maps keys to prices; it refuses empty keys when told to.
class Table {
 public:
  explicit Table(Flags flags) : flags_(flags) {}
  ~Table();

  // size is how many keys the table holds.
  int size() const { return static_cast<int>(prices_.size()); }
  bool put(const Key& key, int price);

 private:
  Flags flags_;
  std::map<Key, int> prices_;
};

Table::~Table() { prices_.clear(); }

// Table::put adds or replaces key's price; it fails on an empty key when
// the table refuses them, and on a full table.
bool Table::put(const Key& key, int price) {
  if (key.empty() && flags_ == Flags::kRefuseEmpty) {
    return false;
  }
  if (prices_.size() >= TABLE_LIMIT) {
    return false;
  }
  prices_[key] = price;
  return true;
}

template <typename T>
T cheapest(const T& a, const T& b) {
  return a < b ? a : b;
}

}  // namespace shop

int main() {
  shop::Table t(shop::Flags::kCopyKeys);
  return t.put("tea", 3) ? 0 : 1;
}
