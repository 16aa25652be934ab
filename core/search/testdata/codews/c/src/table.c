#include <stdlib.h>
#include <string.h>
#include "table.h"

/* Adds or replaces a value; fails on an empty key when the table
 * refuses them. */
int table_put(struct table *t, const char *key, int value)
{
	struct entry *e = malloc(sizeof *e);
	if (!e || (!*key && (t->flags & TABLE_REFUSE_EMPTY)))
		return -1;
	e->key = strdup(key);
	e->value = value;
	e->next = t->head;
	t->head = e;
	return 0;
}
