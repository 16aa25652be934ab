#define TABLE_REFUSE_EMPTY 1

struct entry {
	char *key;
	int value;
	struct entry *next;
};

struct table {
	struct entry *head;
	int flags;
};

int table_put(struct table *t, const char *key, int value);
