/* sample.c: a tiny key-value table, to test cutting C at definitions. */
#include <stdlib.h>
#include <string.h>

#define TABLE_SIZE 64
#define HASH(s) (hash_string(s) % TABLE_SIZE)

typedef enum table_flags {
	TABLE_REFUSE_EMPTY = 1 << 0,
	TABLE_COPY_KEYS = 1 << 1,
} table_flags;

struct entry {
	char *key;
	int value;
	struct entry *next;
};

typedef struct table {
	struct entry *slots[TABLE_SIZE];
	table_flags flags;
} table, *table_ref;

static unsigned hash_string(const char *s);

/* hash_string is djb2: fast, and good enough for short keys. */
static unsigned hash_string(const char *s)
{
	unsigned h = 5381;
	while (*s)
		h = h * 33 + (unsigned char)*s++;
	return h;
}

/* table_put adds or replaces key's value; it fails on an empty key when
 * the table refuses them. */
int table_put(table *t, const char *key, int value)
{
	struct entry *e;
	if (!*key && (t->flags & TABLE_REFUSE_EMPTY))
		return -1;
	for (e = t->slots[HASH(key)]; e; e = e->next) {
		if (strcmp(e->key, key) == 0) {
			e->value = value;
			return 0;
		}
	}
	e = malloc(sizeof *e);
	if (!e)
		return -1;
	e->key = (t->flags & TABLE_COPY_KEYS) ? strdup(key) : (char *)key;
	e->value = value;
	e->next = t->slots[HASH(key)];
	t->slots[HASH(key)] = e;
	return 0;
}

char *(*table_key_of(struct entry *e))(void);
