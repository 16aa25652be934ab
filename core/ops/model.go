package ops

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/palace-dev/palace/core/embed"
	"github.com/palace-dev/palace/core/input"
	"github.com/palace-dev/palace/core/palace"
)

// ModelsDir is where ModelPull stores models under a palace home, and
// where ModelUse and ModelList look for them.
func ModelsDir(home string) string { return filepath.Join(home, "models") }

// PullRetries is how many times a pull resumes a broken download before
// giving up (the next pull resumes too).
const PullRetries = 3

// ModelPullRequest asks to download a sentence-transformers ONNX model
// from Hugging Face (or the mirror HF_ENDPOINT names, with HF_TOKEN) into
// ModelsDir of a home.
type ModelPullRequest struct {
	Name     string // "": DefaultModel
	Revision string // "": main; ignored when the model is already pulled
	// Progress, when set, is called as the download goes (never for a
	// model already pulled).
	Progress func(done, total int64) `json:"-"`
}

// ModelPullResult says where the model is and whether it was there
// before. Used and Embeddings are set by a front that also records the
// model (ModelUse), such as `palace model pull --use`.
type ModelPullResult struct {
	Name       string `json:"name"`
	Dir        string `json:"dir"`
	Already    bool   `json:"already"`              // pulled before; nothing downloaded
	Used       bool   `json:"used"`                 // recorded for the palace (--use)
	Embeddings string `json:"embeddings,omitempty"` // the backend notice, with --use
}

// Validate checks the model's name (OWNER/MODEL or MODEL).
func (r ModelPullRequest) Validate() error {
	if _, err := embed.ModelDirName(r.Model()); err != nil {
		return invalidAsIs{err}
	}
	return nil
}

// Model is the model's name, DefaultModel when none was given.
func (r ModelPullRequest) Model() string {
	if r.Name == "" {
		return DefaultModel
	}
	return r.Name
}

// invalidAsIs is an engine's message about bad input, kept word for word
// and classed Invalid.
type invalidAsIs struct{ err error }

func (e invalidAsIs) Error() string        { return e.err.Error() }
func (e invalidAsIs) Unwrap() error        { return e.err }
func (e invalidAsIs) Is(target error) bool { return target == input.ErrInvalid }

// ModelPull downloads the model into ModelsDir(home), checks that it
// loads and only then moves it into place; a model already there is not
// fetched again. A broken download resumes up to PullRetries times.
func ModelPull(ctx context.Context, home string, r ModelPullRequest) (ModelPullResult, error) {
	if err := r.Validate(); err != nil {
		return ModelPullResult{}, err
	}
	name := r.Model()
	dirName, _ := embed.ModelDirName(name)
	root, err := filepath.Abs(ModelsDir(home))
	if err != nil {
		return ModelPullResult{}, err
	}
	_, statErr := os.Stat(filepath.Join(root, dirName))
	opts := embed.PullOptionsFromEnv()
	opts.Revision = r.Revision
	opts.Retries = PullRetries
	opts.Progress = r.Progress
	dir, err := embed.Pull(ctx, name, root, opts)
	if err != nil {
		return ModelPullResult{}, err
	}
	return ModelPullResult{Name: name, Dir: dir, Already: statErr == nil}, nil
}

// ModelUseRequest names the model a palace embeds with from now on: a
// folder holding model.onnx (or onnx/model.onnx), tokenizer.json and
// config.json, or the name of a model pulled into ModelsDir; an existing
// folder wins.
type ModelUseRequest struct {
	Model string
}

// Validate has nothing to check: a model that names no folder is an
// error of ModelUse naming the folder it looked for.
func (r ModelUseRequest) Validate() error { return nil }

// ModelUseResult is the model recorded and the backend that will use it.
type ModelUseResult struct {
	Dir string `json:"dir"`
	// Embeddings is the backend notice (as StatusResult's embedding says).
	Embeddings string `json:"embeddings"`
}

// ModelUse loads the model once to check it, then records it in the
// palace, so every later front embeds with it (PALACE_MODEL_DIR and a
// front's model folder flag still override it). After a change of model
// the palace needs Embed to re-embed what it holds.
func ModelUse(ctx context.Context, p *palace.Palace, r ModelUseRequest) (ModelUseResult, error) {
	if err := r.Validate(); err != nil {
		return ModelUseResult{}, err
	}
	dir, err := modelArg(p.Home(), r.Model)
	if err != nil {
		return ModelUseResult{}, err
	}
	choice, err := p.UseModel(ctx, dir)
	if err != nil {
		return ModelUseResult{}, err
	}
	return ModelUseResult{Dir: choice.ModelDir, Embeddings: choice.String()}, nil
}

// modelArg resolves ModelUse's model: an existing folder as given, else a
// model pulled under home's ModelsDir, else the argument itself so that
// UseModel reports the missing folder. A Hugging Face style name that is
// neither gets a hint to pull it instead.
func modelArg(home, arg string) (string, error) {
	if st, err := os.Stat(arg); err == nil && st.IsDir() {
		return arg, nil
	}
	dirName, err := embed.ModelDirName(arg)
	if err != nil {
		return arg, nil
	}
	pulled := filepath.Join(ModelsDir(home), dirName)
	if st, err := os.Stat(pulled); err == nil && st.IsDir() {
		return pulled, nil
	}
	if strings.Contains(arg, "/") {
		return "", fmt.Errorf("model %s: no such folder, and not pulled into %s; run 'palace model pull %s'", arg, ModelsDir(home), arg)
	}
	return arg, nil
}

// PulledModel is one model folder under ModelsDir.
type PulledModel struct {
	Name  string `json:"name"`
	Dir   string `json:"dir"`
	InUse bool   `json:"in_use"`
}

// ModelListResult is the model in use ("" when none) and the models
// under ModelsDir: the pulled ones and the names of unfinished pulls.
type ModelListResult struct {
	InUse   string        `json:"in_use"`
	Models  []PulledModel `json:"models"`
	Partial []string      `json:"partial"`
}

// ModelList lists the model in use and the models under the palace's
// ModelsDir. A missing folder is an empty list.
func ModelList(_ context.Context, p *palace.Palace) (ModelListResult, error) {
	inUse := p.EmbedConfig().ModelDir
	models, partial, err := listModels(ModelsDir(p.Home()), inUse)
	return ModelListResult{InUse: inUse, Models: models, Partial: partial}, err
}

// listModels reads root: the model folders (those with config.json) and
// the names of unfinished pulls.
func listModels(root, inUse string) (models []PulledModel, partial []string, err error) {
	models, partial = []PulledModel{}, []string{}
	ents, err := os.ReadDir(root)
	if errors.Is(err, fs.ErrNotExist) {
		return models, partial, nil
	}
	if err != nil {
		return nil, nil, fmt.Errorf("list models: %w", err)
	}
	for _, e := range ents {
		if !e.IsDir() || strings.HasPrefix(e.Name(), ".") {
			continue
		}
		dir := filepath.Join(root, e.Name())
		if _, err := os.Stat(filepath.Join(dir, "config.json")); err != nil {
			continue
		}
		models = append(models, PulledModel{
			Name:  embed.ModelNameFromDir(e.Name()),
			Dir:   dir,
			InUse: inUse != "" && filepath.Clean(inUse) == dir,
		})
	}
	if ents, err := os.ReadDir(embed.PartialDir(root, "")); err == nil {
		for _, e := range ents {
			if e.IsDir() {
				partial = append(partial, embed.ModelNameFromDir(e.Name()))
			}
		}
	}
	return models, partial, nil
}
