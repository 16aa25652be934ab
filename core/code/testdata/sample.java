package shop;

import java.util.HashMap;
import java.util.Map;

/** Table maps keys to prices; it refuses empty keys when told to. */
public class Table {
    public static final int LIMIT = 64;
    private final Map<String, Integer> prices = new HashMap<>(), spare = null;
    private boolean refuseEmpty;

    /** Flags say how a table treats its keys. */
    public enum Flag {
        REFUSE_EMPTY,
        COPY_KEYS;
    }

    public Table(boolean refuseEmpty) {
        this.refuseEmpty = refuseEmpty;
    }

    /**
     * put adds or replaces key's price; it fails on an empty key when the
     * table refuses them, and on a full table.
     */
    public boolean put(String key, int price) {
        if (key.isEmpty() && refuseEmpty) {
            return false;
        }
        if (prices.size() >= LIMIT) {
            return false;
        }
        prices.put(key, price);
        return true;
    }

    interface Priced {
        int DEFAULT_PRICE = 1;

        int price();
    }

    record Entry(String key, int price) {
        Entry {
            if (price < 0) throw new IllegalArgumentException("price");
        }
    }
}
