package cjk

import (
	"bufio"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/yanyiwu/gojieba"
)

// The dictionaries are embedded because gojieba's default dictionary path is
// runtime.Caller(0) of its config.go, fixed at build time: under -trimpath it
// is a relative path, and on another machine (or with the module cache gone)
// it does not exist, so NewJieba() panics. cppjieba only reads dictionaries
// from files, so the embedded bytes are written to a cache directory first.
//
//go:embed dict/*
var dictFS embed.FS

// jiebaFiles are the cppjieba dictionaries in the argument order of
// gojieba.NewJieba: dict, hmm, user dict, idf, stop words. They are written to
// disk; their content hash names the cache subdirectory.
var jiebaFiles = [5]string{
	"jieba.dict.utf8",
	"hmm_model.utf8",
	"user.dict.utf8",
	"idf.utf8",
	"stop_words.utf8",
}

// mustBeNonEmpty reports dictionaries that cppjieba cannot load when empty.
// An empty idf.utf8 is the dangerous one: cppjieba asserts and the process
// dies with SIGABRT, which no recover() can catch, so it is checked in Go
// before NewJieba is reached.
func mustBeNonEmpty(name string) bool {
	switch name {
	case "jieba.dict.utf8", "hmm_model.utf8", "idf.utf8":
		return true
	}
	return false
}

// palaceDictFile is Palace's supplementary vocabulary. It is applied with
// AddWordEx from memory rather than written to disk, so gojieba's own user
// dictionary stays byte-for-byte as shipped and the cache directory does not
// change when only this list does.
const palaceDictFile = "palace.dict.utf8"

// dictDirPrefix prefixes the cache subdirectory, followed by 12 hex digits of
// the content hash. 48 bits are plenty to tell dictionary versions apart.
const dictDirPrefix = "jieba-"

// hashFiles returns the hex SHA-256 of the named embedded files (name, size
// and content of each, in the given order). It streams the embedded data, so
// it does not copy the 5.6 MB into the heap.
func hashFiles(names []string) (string, error) {
	h := sha256.New()
	for _, name := range names {
		f, err := dictFS.Open(path.Join("dict", name))
		if err != nil {
			return "", fmt.Errorf("embedded dictionary %s: %w", name, err)
		}
		fi, err := f.Stat()
		if err == nil {
			fmt.Fprintf(h, "%s\x00%d\x00", name, fi.Size())
			_, err = io.Copy(h, f)
		}
		f.Close()
		if err != nil {
			return "", fmt.Errorf("hash embedded dictionary %s: %w", name, err)
		}
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// DictVersion identifies the embedded vocabulary: the cppjieba dictionaries
// plus Palace's supplementary word list. Segmentation, and therefore which
// Chinese queries match which indexed text, can change when it changes, so a
// store can record it next to its index and re-index Chinese text when it
// differs. Words added with AddWord are not included. It hashes about 5.6 MB
// (milliseconds), needs no Segmenter and loads nothing.
func DictVersion() (string, error) {
	sum, err := hashFiles(append(jiebaFiles[:], palaceDictFile))
	if err != nil {
		return "", fmt.Errorf("cjk: dictionary version: %w", err)
	}
	return sum[:12], nil
}

// materialise writes the embedded cppjieba dictionaries under
// cacheDir/jieba-<hash>/ unless they are already there, and returns their
// paths in NewJieba order.
//
// Concurrency: several processes (or Segmenters) may materialise into the
// same directory at once. Each file is written to a unique temp file in the
// target directory, fsynced and renamed into place, and rename is atomic, so
// a reader sees either no file or a complete one, never half a file. Losing a
// race just means renaming identical bytes over identical bytes. The fsync
// matters because a crash could otherwise leave a file with the right size
// but zero-filled content, which passes the size check and makes cppjieba
// abort.
//
// Reuse check: an existing regular file of the embedded size is trusted. The
// directory is named by the content hash, so a file of the right size can
// only differ through external tampering or disk corruption; re-hashing 5.6
// MB on every start to rule that out is not worth it.
func materialise(cacheDir string) ([5]string, error) {
	var paths [5]string
	if cacheDir == "" {
		return paths, errors.New("no cache directory given for the jieba dictionaries")
	}
	sum, err := hashFiles(jiebaFiles[:])
	if err != nil {
		return paths, err
	}
	dir := filepath.Join(cacheDir, dictDirPrefix+sum[:12])
	// cppjieba splits the user-dictionary argument on '|' and ';' to allow
	// several files; such a path would name files that do not exist and
	// cppjieba would abort the process instead of returning an error.
	if strings.ContainsAny(dir, "|;") {
		return paths, fmt.Errorf("dictionary cache path %q contains '|' or ';', which cppjieba treats as path-list separators", dir)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return paths, fmt.Errorf("create jieba dictionary cache directory: %w", err)
	}
	for i, name := range jiebaFiles {
		target := filepath.Join(dir, name)
		paths[i] = target
		size, err := embeddedSize(name)
		if err != nil {
			return paths, err
		}
		if size == 0 && mustBeNonEmpty(name) {
			return paths, fmt.Errorf("embedded dictionary %s is empty; cppjieba would abort the process", name)
		}
		if fi, err := os.Stat(target); err != nil || !fi.Mode().IsRegular() || fi.Size() != size {
			if err := writeAtomic(dir, name); err != nil {
				return paths, err
			}
		}
		// cppjieba aborts the process when it cannot open a file (say, one
		// left unreadable by another user); find out here, as an error.
		f, err := os.Open(target)
		if err != nil {
			return paths, fmt.Errorf("open jieba dictionary: %w", err)
		}
		f.Close()
	}
	return paths, nil
}

func embeddedSize(name string) (int64, error) {
	fi, err := fs.Stat(dictFS, path.Join("dict", name))
	if err != nil {
		return 0, fmt.Errorf("embedded dictionary %s: %w", name, err)
	}
	return fi.Size(), nil
}

// writeAtomic copies the embedded file name to dir/name via a temp file in
// dir (same filesystem, so the rename is atomic).
func writeAtomic(dir, name string) (err error) {
	src, err := dictFS.Open(path.Join("dict", name))
	if err != nil {
		return fmt.Errorf("embedded dictionary %s: %w", name, err)
	}
	defer src.Close()

	tmp, err := os.CreateTemp(dir, "."+name+".tmp-*")
	if err != nil {
		return fmt.Errorf("write jieba dictionary %s: %w", name, err)
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	// CreateTemp makes the file 0600. The files are not secret, and a
	// cache first filled by another account (sudo, a service user) should
	// still be readable.
	if err = tmp.Chmod(0o644); err != nil {
		return fmt.Errorf("write jieba dictionary %s: %w", tmp.Name(), err)
	}
	if _, err = io.Copy(tmp, src); err != nil {
		return fmt.Errorf("write jieba dictionary %s: %w", tmp.Name(), err)
	}
	if err = tmp.Sync(); err != nil {
		return fmt.Errorf("sync jieba dictionary %s: %w", tmp.Name(), err)
	}
	if err = tmp.Close(); err != nil {
		return fmt.Errorf("close jieba dictionary %s: %w", tmp.Name(), err)
	}
	if err = os.Rename(tmp.Name(), filepath.Join(dir, name)); err != nil {
		return fmt.Errorf("install jieba dictionary %s: %w", name, err)
	}
	return nil
}

// newJieba wraps gojieba.NewJieba, which panics (in Go, before any cgo call)
// when a dictionary file does not exist; the panic is turned into an error.
// Aborts inside cppjieba (unreadable or malformed files) cannot be caught,
// which is why materialise verifies the files first.
func newJieba(paths [5]string) (j *gojieba.Jieba, err error) {
	defer func() {
		if r := recover(); r != nil {
			j, err = nil, fmt.Errorf("load jieba dictionaries: %v", r)
		}
	}()
	return gojieba.NewJieba(paths[:]...), nil
}

// userWord is one AddWordEx call.
type userWord struct {
	word, tag string
	freq      int
}

// palaceWords parses the embedded supplementary vocabulary. Format per line:
// "word", "word tag" or "word freq tag" (cppjieba's user-dictionary format);
// blank lines and lines starting with '#' are ignored.
func palaceWords() ([]userWord, error) {
	f, err := dictFS.Open(path.Join("dict", palaceDictFile))
	if err != nil {
		return nil, fmt.Errorf("embedded dictionary %s: %w", palaceDictFile, err)
	}
	defer f.Close()
	var words []userWord
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fields := strings.Fields(line)
		var w userWord
		switch len(fields) {
		case 1:
			w.word = fields[0]
		case 2:
			w.word, w.tag = fields[0], fields[1]
		case 3:
			freq, err := strconv.Atoi(fields[1])
			if err != nil || freq < 0 {
				return nil, fmt.Errorf("%s:%d: bad frequency %q", palaceDictFile, n, fields[1])
			}
			w.word, w.freq, w.tag = fields[0], freq, fields[2]
		default:
			return nil, fmt.Errorf("%s:%d: want \"word [freq] [tag]\", got %q", palaceDictFile, n, line)
		}
		if !utf8.ValidString(w.word) {
			return nil, fmt.Errorf("%s:%d: word is not valid UTF-8", palaceDictFile, n)
		}
		words = append(words, w)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read %s: %w", palaceDictFile, err)
	}
	return words, nil
}
