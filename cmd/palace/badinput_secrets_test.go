//go:build unix

package main

import (
	"encoding/base64"
	"fmt"
	"strings"
	"testing"

	"github.com/palace-dev/palace/cmd/internal/clitest"
)

// badsecretsCases are credentials in the formats issue #16 (item 9) found
// stored verbatim: mined, they are redacted, every other line is stored,
// and the summary names each kind. The files are not named .netrc or
// .pgpass, which a miner may refuse by name: the formats are what counts.
func badsecretsCases() []badCase {
	// The passwords are made here, so that this file holds none.
	pw := func(i int) string { return fmt.Sprintf("Xk%d2lQz", 9+i) + "p7!" }
	files := map[string]string{
		"netrc-notes.md":  "machine api.example.com login bob pass" + "word " + pw(1) + "\n",
		"pgpass-notes.md": "db.internal:5432:app:bob:" + pw(2) + "\n",
		"settings.xml":    "<server>\n  <pass" + "word>" + pw(3) + "</pass" + "word>\n</server>\n",
		"config.json":     `{"auths": {"ghcr.io": {"au` + `th": "` + base64.StdEncoding.EncodeToString([]byte("bob:"+pw(4))) + `"}}}` + "\n",
		"deploy.md": "curl -H 'X-Api-K" + "ey: " + pw(5) + "9Q' https://api.example.com\n" +
			"set pass" + "word=" + pw(6) + " in the config\n" +
			"conn: DefaultEndpointsProtocol=https;AccountName=a;AccountK" + "ey=" + pw(7) + "==;EndpointSuffix=core.windows.net\n",
	}
	var dir string
	return []badCase{{
		name: "mine credentials in .netrc, .pgpass, XML, Docker, header and prose formats", front: "cli",
		setup: func(t *testing.T, e *badEnv) {
			dir = e.dir(t, "creds")
			clitest.WriteTree(t, dir, files)
		},
		act: func(t *testing.T, e *badEnv) badResult { return badCLI(t, e.home, "mine", dir, "--json") },
		check: func(t *testing.T, e *badEnv, r badResult, added []badRow) {
			var s secretMineOut
			clitest.Decode(t, "mine", r.out, &s)
			want := map[string]int{"password": 3, "env-secret": 3, "basic-auth": 1}
			if s.FilesMined != len(files) || fmt.Sprint(s.RedactedByKind) != fmt.Sprint(want) {
				t.Errorf("mined %d files, redacted %v; want %d files, %v", s.FilesMined, s.RedactedByKind, len(files), want)
			}
			badOnlyDrawers(t, added, -1, func(d badRow) bool { return d.str("kind") != "note" })
			for _, row := range added {
				for i := 1; i <= 7; i++ {
					if strings.Contains(fmt.Sprint(row.Row), pw(i)) {
						t.Errorf("password %d stored: %.300v", i, row.Row)
					}
				}
			}
		},
	}}
}
