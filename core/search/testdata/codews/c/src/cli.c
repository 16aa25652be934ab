#include <stdio.h>
#include "table.h"

/* load_defaults fills a new table with the settings every user gets. */
void load_defaults(struct table *t)
{
	table_put(t, "width", 80);
	table_put(t, "height", 24);
	table_put(t, "tabs", 8);
	if (table_put(t, "colors", 256) != 0)
		fprintf(stderr, "no colors\n");
}
