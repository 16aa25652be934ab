// Copyright 2013-2023 The Widget Authors
// SPDX-License-Identifier: Apache-2.0

package widget

import "errors"

func (c *Command) findChild(args []string) (*Command, error) {
	for _, child := range c.children {
		if len(args) > 0 && child.Use == args[0] {
			return child, nil
		}
	}
	return nil, errors.New("no such command")
}

func (c *Command) initDefaultHelpCmd() {
	c.children = append(c.children, &Command{Use: "help"})
}

func countVerbs(cmds []*Command) int {
	n := 0
	for range cmds {
		n++
	}
	return n
}
