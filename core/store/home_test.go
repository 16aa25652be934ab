package store

import (
	"path/filepath"
	"testing"
)

func TestResolveHome(t *testing.T) {
	user := t.TempDir()
	t.Setenv("HOME", user)
	for _, c := range []struct{ explicit, env, want string }{
		{"~/mem", "", filepath.Join(user, "mem")},
		{"~", "", user},
		{"/srv/palace", "~/ignored", "/srv/palace"},
		{"", "~/from-env", filepath.Join(user, "from-env")},
		{"", "", filepath.Join(user, ".palace")},
		{"~other/x", "", "~other/x"}, // another user's home is not guessed
		{"rel/~/x", "", "rel/~/x"},
	} {
		t.Setenv("PALACE_HOME", c.env)
		got, err := ResolveHome(c.explicit)
		if err != nil || got != c.want {
			t.Errorf("ResolveHome(%q) with PALACE_HOME=%q = %q, %v; want %q", c.explicit, c.env, got, err, c.want)
		}
	}
}
