package embed

import (
	"debug/elf"
	"debug/macho"
	"errors"
	"fmt"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strconv"
	"strings"
)

// minORTMinor is the oldest onnxruntime 1.x whose C API serves the version
// onnxruntime_go v1.25.0 asks for (ORT_API_VERSION 23). An older library
// would fail inside onnxruntime_go with "Error setting ORT API base: 2".
const minORTMinor = 23

// ortLib is a libonnxruntime file that passed inspection.
type ortLib struct {
	path    string
	version string // "1.30.0", or "unknown" if the file does not say
	source  string // where it was found, for Choice.Reason
}

// findORTLib looks for libonnxruntime: cfg.ORTLib (PALACE_ORT_LIB), then
// $Home/lib, then the system folders. An explicit cfg.ORTLib that is unusable
// is an error rather than silently replaced by another library. Candidates
// are inspected as files (debug/elf, debug/macho) without loading them, so a
// wrong file never touches the process-wide ONNX Runtime environment.
func findORTLib(cfg Config) (ortLib, error) {
	if cfg.ORTLib != "" {
		lib, err := inspectORTLib(cfg.ORTLib)
		if err != nil {
			return ortLib{}, fmt.Errorf("onnxruntime library %s (PALACE_ORT_LIB) unusable: %w", cfg.ORTLib, err)
		}
		lib.source = "PALACE_ORT_LIB"
		return lib, nil
	}
	var looked, rejected []string
	try := func(dir, source string) (ortLib, bool) {
		looked = append(looked, dir)
		for _, p := range libCandidates(dir) {
			lib, err := inspectORTLib(p)
			if err != nil {
				rejected = append(rejected, fmt.Sprintf("%s: %v", p, err))
				continue
			}
			lib.source = source
			return lib, true
		}
		return ortLib{}, false
	}
	if cfg.Home != "" {
		if lib, ok := try(filepath.Join(cfg.Home, "lib"), "in the Palace home"); ok {
			return lib, nil
		}
	}
	for _, dir := range cfg.libDirs() {
		if lib, ok := try(dir, "system library folder"); ok {
			return lib, nil
		}
	}
	msg := "no onnxruntime library (PALACE_ORT_LIB unset; none in " + strings.Join(looked, ", ") + ")"
	if len(rejected) > 0 {
		msg += "; rejected " + strings.Join(rejected, "; ")
	}
	return ortLib{}, errors.New(msg)
}

// libCandidates lists dir's libonnxruntime files, the unversioned name first.
func libCandidates(dir string) []string {
	var pattern string
	switch runtime.GOOS {
	case "darwin":
		pattern = "libonnxruntime*.dylib"
	case "windows":
		pattern = "onnxruntime.dll"
	default:
		pattern = "libonnxruntime.so*"
	}
	matches, _ := filepath.Glob(filepath.Join(dir, pattern))
	sort.Slice(matches, func(a, b int) bool {
		if len(matches[a]) != len(matches[b]) {
			return len(matches[a]) < len(matches[b])
		}
		return matches[a] < matches[b]
	})
	return matches
}

var versionInName = regexp.MustCompile(`(\d+)\.(\d+)\.(\d+)`)

// inspectORTLib checks that path is a shared library for this architecture
// exporting OrtGetApiBase, and reads its version where the file records it
// (the ELF symbol version VERS_1.30.0; on macOS the file name).
func inspectORTLib(path string) (ortLib, error) {
	lib := ortLib{path: path, version: "unknown"}
	switch runtime.GOOS {
	case "linux", "freebsd":
		f, err := elf.Open(path)
		if err != nil {
			return lib, fmt.Errorf("not a shared library: %w", err)
		}
		defer f.Close()
		if want, ok := elfMachine[runtime.GOARCH]; ok && f.Machine != want {
			return lib, fmt.Errorf("built for %v, this is %s", f.Machine, runtime.GOARCH)
		}
		syms, err := f.DynamicSymbols()
		if err != nil {
			return lib, fmt.Errorf("reading symbols: %w", err)
		}
		found := false
		for _, s := range syms {
			if s.Name == "OrtGetApiBase" && s.Section != elf.SHN_UNDEF {
				found = true
				if v, ok := strings.CutPrefix(s.Version, "VERS_"); ok {
					lib.version = v
				}
				break
			}
		}
		if !found {
			return lib, errors.New("does not export OrtGetApiBase: not an onnxruntime library")
		}
	case "darwin":
		f, err := macho.Open(path)
		if err != nil {
			return lib, fmt.Errorf("not a Mach-O library: %w", err)
		}
		defer f.Close()
		found := false
		if f.Symtab != nil {
			for _, s := range f.Symtab.Syms {
				if s.Name == "_OrtGetApiBase" {
					found = true
					break
				}
			}
		}
		if !found {
			return lib, errors.New("does not export OrtGetApiBase: not an onnxruntime library")
		}
		if m := versionInName.FindString(filepath.Base(path)); m != "" {
			lib.version = m
		}
	}
	if m := versionInName.FindStringSubmatch(lib.version); m != nil {
		major, _ := strconv.Atoi(m[1])
		minor, _ := strconv.Atoi(m[2])
		if major == 1 && minor < minORTMinor {
			return lib, fmt.Errorf("onnxruntime %s is too old: onnxruntime_go v1.25.0 needs C API %d (onnxruntime >= 1.%d); run `palace setup ort`", lib.version, minORTMinor, minORTMinor)
		}
	}
	return lib, nil
}

var elfMachine = map[string]elf.Machine{
	"amd64": elf.EM_X86_64,
	"arm64": elf.EM_AARCH64,
	"386":   elf.EM_386,
	"arm":   elf.EM_ARM,
}
