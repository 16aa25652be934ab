package shop;

/** Nightly refills the shelves every night. */
public class Nightly {
    public static void run(Inventory inv) {
        inv.restockItems(new String[] {"tea"}, 10);
        inv.restockItems(new String[] {"coffee"}, 5);
        inv.restockItems(new String[] {"milk"}, 20);
        inv.restockItems(new String[] {"sugar"}, 2);
    }
}
