# sample.rb: a tiny key-value table, to test cutting Ruby at definitions.
require 'set'

LIMIT = 64

module Shop
  VERSION = '1.0'

  # Table maps keys to prices; it refuses empty keys when told to.
  class Table
    DEFAULT_PRICE = 1

    def initialize(refuse_empty: false)
      @prices = {}
      @refuse_empty = refuse_empty
    end

    # put adds or replaces key's price; it fails on an empty key when the
    # table refuses them, and on a full table.
    def put(key, price = DEFAULT_PRICE)
      return false if key.empty? && @refuse_empty
      return false if @prices.size >= LIMIT

      @prices[key] = price
      true
    end

    def self.load(path)
      new.tap { |t| File.readlines(path).each { |l| t.put(*l.split) } }
    end
  end

  class Shop::Receipt < Table
    def total = @prices.values.sum
  end
end

def cheapest(a, b)
  a < b ? a : b
end
