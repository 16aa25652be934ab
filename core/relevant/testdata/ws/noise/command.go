// Copyright 2013-2023 The Widget Authors
//
// Licensed under the Apache License, Version 2.0 (the "License");
// you may not use this file except in compliance with the License.
// You may obtain a copy of the License at
//
//      http://www.apache.org/licenses/LICENSE-2.0
//
// Unless required by applicable law or agreed to in writing, software
// distributed under the License is distributed on an "AS IS" BASIS,
// WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
// See the License for the specific language governing permissions and
// limitations under the License.

package widget

import "fmt"

// Command is one verb of the widget tool.
type Command struct {
	Use      string
	children []*Command
}

// ExecuteC runs the command the arguments name and returns it.
func (c *Command) ExecuteC(args []string) (cmd *Command, err error) {
	cmd, err = c.findChild(args)
	if err != nil {
		return c, fmt.Errorf("widget %s: %w", c.Use, err)
	}
	c.initDefaultHelpCmd()
	return cmd, nil
}

type commandSet struct {
	items map[string]*Command
}

func (cs *commandSet) register(cmd *Command) {
	cs.items[cmd.Use] = cmd
}
