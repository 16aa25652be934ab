package shop;

import java.util.HashMap;
import java.util.Map;

/** Inventory counts what the shop holds of each item. */
public class Inventory {
    private final Map<String, Integer> counts = new HashMap<>();

    /** Adds n of each item, refusing a negative count. */
    public void restockItems(String[] items, int n) {
        if (n < 0) {
            throw new IllegalArgumentException("negative restock");
        }
        for (String item : items) {
            counts.merge(item, n, Integer::sum);
        }
    }
}
