module Shop
  # Coupon takes a share off a basket's total.
  class Coupon
    def initialize(percent)
      @percent = percent
    end

    # redeem_for returns the basket's total less the coupon's share; a
    # spent coupon takes nothing off.
    def redeem_for(basket)
      return basket.total if @spent

      @spent = true
      basket.total * (100 - @percent) / 100
    end
  end
end
