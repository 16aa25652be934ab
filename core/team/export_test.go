package team

import "context"

// Setting is a server setting of the connection's session, for the tests
// of the statement timeout Connect sets.
func (c *Conn) Setting(ctx context.Context, name string) (string, error) {
	var v string
	err := c.pg.QueryRow(ctx, `SELECT current_setting($1)`, name).Scan(&v)
	return v, err
}

// ExecWithin runs sql as one step of the connection's timeout, as every
// team query runs.
func (c *Conn) ExecWithin(ctx context.Context, step, sql string) error {
	return c.within(ctx, step, c.timeout, func(ctx context.Context) error {
		_, err := c.pg.Exec(ctx, sql)
		return err
	})
}
