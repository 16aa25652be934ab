package extract

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/palace-dev/palace/core/cjk"
)

// Chinese sentences are read clause by clause (cut at ，、：), each tagged
// by jieba. A clause that asks (吗, 谁, 要不要), denies (不, 没有, 不再) or
// plans, guesses or suggests (也许, 可能, 应该, 计划, 建议, 会) proposes
// nothing, or below the default confidence. Otherwise a trigger word is
// looked for (负责, 在做, 参与, 使用/用, 决定用, 选择, 从A迁移到B, 改用,
// 搬到, 喜欢, 偏好) and its subject and object are the noun phrases around
// it. jieba's tagger knows few personal names (张伟 and 王芳 come back as
// x, unknown), so an unknown word counts as a name.

// ztok is a tagged word with where it sits in its clause.
type ztok struct {
	word, pos  string
	start, end int // byte offsets in the clause
}

// chinese proposes the facts of one Chinese sentence.
func chinese(t Tagger, sentence string, w who) ([]fact, error) {
	s := strings.TrimSpace(sentence)
	if strings.HasSuffix(s, "？") || strings.HasSuffix(s, "?") {
		return nil, nil
	}
	var out []fact
	for _, c := range strings.FieldsFunc(s, func(r rune) bool { return strings.ContainsRune("，,、：:（）()“”\"", r) }) {
		tags, err := t.Tag(c)
		if err != nil {
			return nil, err
		}
		out = append(out, zclause(locate(tags, c), c, w)...)
	}
	return out, nil
}

// locate finds each tagged word in its clause, so an object keeps the
// spacing it was written with ("GitHub Actions").
func locate(tags []cjk.Tagged, c string) []ztok {
	out := make([]ztok, 0, len(tags))
	at := 0
	for _, t := range tags {
		i := strings.Index(c[at:], t.Word)
		if i < 0 {
			continue
		}
		out = append(out, ztok{word: t.Word, pos: t.POS, start: at + i, end: at + i + len(t.Word)})
		at += i + len(t.Word)
	}
	return out
}

var (
	zquestion = set("吗 呢 谁 什么 哪 哪个 哪些 要不要 是不是 是否 还是 怎么 为什么 为何")
	znegation = set("不 没 没有 不再 别 未 无 不用 不要 并非 从未 从不 否决 放弃 停用 弃用")
	zhedge    = set(`也许 可能 应该 应当 计划 打算 准备 想 想要 建议 觉得 认为 或许 大概 讨论 考虑 会 将 将要 要
		希望 如果 假如 要是 过 以前 之前 曾经 曾 让 试试 尝试 下个月 下周 明年 以后 将来`)
	// zskip stand between a subject and its verb: adverbs of time and
	// degree, 在 and 正在, 一起.
	zskip = set("在 正在 一起 现在 最近 目前 已经 一直 还 也 都 仍 仍然 依然 主要 目前 刚 刚刚 终于 最终 正式 现 已 就 又 上个月 上周 去年 今年 本周 这周")
	// zstop end an object: verbs of purpose and particles.
	zstop = set("做 作为 来 去 存 存储 处理 管理 实现 是 了 着 的 吗 呢 吧 啊 和 与 跟 及 或 或者 还是 在 用 给 到 从 对 把 被")
	// zplace are the parts of speech of a place name.
	zplace = set("ns")
	// znames are the parts of speech a name may have, x (unknown) among
	// them.
	znames = set("nr nrfg nrt nz nt ns eng x j")
)

// ztrigger is a word that starts a fact.
type ztrigger struct {
	pred  string
	shape shape
	// person: the subject must be a name, 我 or 我们.
	person  bool
	decided bool
	// after are words the object may start after (用 in 喜欢用, 了 in 选择了).
	after []string
}

var ztriggers = map[string]ztrigger{
	"负责":  {pred: Owner, shape: owns, person: true},
	"参与":  {pred: WorksOn, person: true, after: []string{"了"}},
	"使用":  {pred: Uses, after: []string{"了"}},
	"采用":  {pred: Uses, after: []string{"了"}},
	"用":   {pred: Uses, after: []string{"了", "的", "是"}},
	"在用":  {pred: Uses},
	"改用":  {pred: Uses, after: []string{"了"}},
	"换成":  {pred: Uses, after: []string{"了"}},
	"决定":  {pred: Decided, decided: true, after: []string{"用", "使用", "采用", "改用"}},
	"选择":  {pred: Decided, decided: true, after: []string{"了", "用", "使用"}},
	"选定":  {pred: Decided, decided: true, after: []string{"了"}},
	"选用":  {pred: Decided, decided: true, after: []string{"了"}},
	"喜欢":  {pred: Prefers, person: true, after: []string{"用", "使用"}},
	"偏好":  {pred: Prefers, person: true, after: []string{"用", "使用"}},
	"偏爱":  {pred: Prefers, person: true, after: []string{"用", "使用"}},
	"倾向于": {pred: Prefers, person: true, after: []string{"用", "使用"}},
	"习惯":  {pred: Prefers, person: true, after: []string{"用", "使用"}},
}

// zwork are the verbs that, after 在 or 正在, say someone works on
// something: 在做, 正在开发.
var zwork = set("做 开发 写 搞 重构 实现 维护")

// zmove are the verbs of a move; 搬 moves a person to a place.
var zmove = set("迁移 迁 切换 换 转 搬 迁移到 切换到 搬到 换到 转到")

// zclause proposes the facts of one clause.
func zclause(ts []ztok, c string, w who) []fact {
	hedged := false
	for _, t := range ts {
		switch {
		case zquestion[t.word]:
			return nil
		case znegation[t.word] || (utf8.RuneCountInString(t.word) > 1 && (strings.HasPrefix(t.word, "不") || strings.HasPrefix(t.word, "没"))):
			return nil
		case zhedge[t.word] || t.pos == "t" && strings.HasPrefix(t.word, "下"):
			hedged = true
		}
	}
	var out []fact
	for i := 0; i < len(ts); i++ {
		fs, next := ztriggerAt(ts, i, c, w)
		out = append(out, fs...)
		i = max(i, next-1)
	}
	if hedged {
		for i := range out {
			out[i].conf /= 2
		}
	}
	return out
}

// ztriggerAt reads the fact a trigger at ts[i] states, if any, and where
// reading goes on.
func ztriggerAt(ts []ztok, i int, c string, w who) ([]fact, int) {
	word := ts[i].word
	switch {
	case word == "从":
		return zfrom(ts, i, c, w)
	case zmove[word] || strings.HasPrefix(word, "迁移") || strings.HasPrefix(word, "搬到"):
		return zmoveTo(ts, i, c, w, "")
	case word == "负责人":
		return zleader(ts, i, c, w), i + 1
	case word == "归":
		return zbelongs(ts, i, c, w), len(ts)
	case zwork[word] && i > 0 && (ts[i-1].word == "在" || ts[i-1].word == "正在"):
		return zfacts(ts, i-1, i+1, ztrigger{pred: WorksOn, person: true}, c, w), i + 1
	}
	tr, ok := ztriggers[word]
	if !ok {
		return nil, i + 1
	}
	j := i + 1
	for j < len(ts) && slices.Contains(tr.after, ts[j].word) {
		j++
	}
	if tr.shape == owns && j < len(ts) && ts[j].word == "的" {
		return nil, j // 陈晨负责的服务: a relative clause, not a statement
	}
	if word == "负责" && i > 0 {
		// 支付接口由王芳负责: the thing before 由, its owner after.
		if k := zskipBack(ts, i-1); k >= 0 {
			if s, from := znp(ts, k, c); s != "" && from > 0 && ts[from-1].word == "由" {
				if thing, _ := znp(ts, zskipBack(ts, from-2), c); thing != "" && zname(ts[from:k+1]) {
					return []fact{{s: thing, p: Owner, o: s, conf: 0.85}}, j
				}
			}
		}
	}
	return zfacts(ts, i, j, tr, c, w), j
}

// zfacts reads the subjects before ts[i] and the objects from ts[j].
func zfacts(ts []ztok, i, j int, tr ztrigger, c string, w who) []fact {
	subs := zsubjects(ts, zskipBack(ts, i-1), c, w, tr.person)
	if len(subs) == 0 {
		return nil
	}
	objs := zobjects(ts, j, c)
	var out []fact
	for _, s := range subs {
		for _, o := range objs {
			conf := min(s.conf, o.conf)
			if tr.shape == owns {
				out = append(out, fact{s: o.name, p: tr.pred, o: s.name, conf: conf})
				continue
			}
			out = append(out, fact{s: s.name, p: tr.pred, o: o.name, conf: conf})
			if tr.decided {
				out = append(out, fact{s: s.name, p: Uses, o: o.name, conf: conf})
			}
		}
	}
	return out
}

// zskipBack steps back from k over adverbs and time words.
func zskipBack(ts []ztok, k int) int {
	for k >= 0 && (zskip[ts[k].word] || ts[k].pos == "d" || ts[k].pos == "t") {
		k--
	}
	return k
}

// zsubjects reads the names ending at ts[k]: 李娜, 张伟和李娜, 我 (the
// speaker), 我们 (the team), or, unless a person is needed, a noun phrase
// (前端, 监控系统).
func zsubjects(ts []ztok, k int, c string, w who, person bool) []side {
	var out []side
	for k >= 0 {
		switch ts[k].word {
		case "我":
			if w.speaker == "" {
				return nil
			}
			out = append(out, side{name: w.speaker, conf: 0.85})
			k--
		case "我们", "咱们", "我们团队", "团队":
			if w.we == "" {
				return nil
			}
			out = append(out, side{name: w.we, conf: 0.85})
			k--
		default:
			name, from := znp(ts, k, c)
			if name == "" {
				return nil
			}
			s := side{name: name, conf: 0.85}
			if !zname(ts[from : k+1]) {
				if person {
					return nil
				}
				s.conf, s.thing = 0.8, true
			}
			if from > 0 && ts[from-1].pos == "r" {
				return nil // 这个脚本: a thing pointed at, not named
			}
			out = append(out, s)
			k = from - 1
		}
		if k < 0 || (ts[k].word != "和" && ts[k].word != "与" && ts[k].word != "跟") {
			break
		}
		k--
	}
	slices.Reverse(out)
	return out
}

// zname reports whether a noun phrase is one name: a single word tagged
// as a name (or unknown).
func zname(ts []ztok) bool { return len(ts) == 1 && znames[ts[0].pos] }

// znp reads the noun phrase ending at ts[k] backwards and returns it with
// its first index; "" when ts[k] cannot end one.
func znp(ts []ztok, k int, c string) (string, int) {
	from := k
	for from >= 0 && znoun(ts[from]) {
		from--
	}
	from++
	if from > k {
		return "", k + 1
	}
	return zjoin(ts[from:k+1], c), from
}

// znoun reports whether a word can be part of a noun phrase: nouns, names,
// Latin words, verbal nouns and the verbs of compounds (搜索重构, 支付接口),
// but not the verbs and particles that end a phrase.
func znoun(t ztok) bool {
	if zstop[t.word] || ztriggers[t.word].pred != "" || zmove[t.word] {
		return false
	}
	switch {
	case strings.HasPrefix(t.pos, "n"), t.pos == "eng", t.pos == "vn", t.pos == "x", t.pos == "j", t.pos == "l", t.pos == "v", t.pos == "a":
		return true
	case t.pos == "f":
		// 前端, 后端; not 以前 or 前.
		return utf8.RuneCountInString(t.word) > 1 && !zhedge[t.word]
	}
	return false
}

// zobjects reads the objects starting at ts[j]: "React和Vite" is two. An
// unknown word after a Latin one ends the object (Redis存会话: Redis), and
// "X项目" is X.
func zobjects(ts []ztok, j int, c string) []side {
	var out []side
	for j < len(ts) {
		k := j
		for k < len(ts) && (znoun(ts[k]) || ts[k].word == "的" && k > j && k+1 < len(ts) && znoun(ts[k+1])) {
			if k > j && ts[k-1].pos == "eng" && ts[k].pos == "x" {
				break // Redis存会话: jieba glues the verb after a Latin word into an unknown word
			}
			k++
		}
		if k == j {
			break
		}
		run := ts[j:k]
		if len(run) > 1 && run[len(run)-1].word == "项目" {
			run = run[:len(run)-1]
		}
		conf := 0.85
		if len(run) > 4 {
			conf -= 0.1
		}
		out = append(out, side{name: zjoin(run, c), conf: conf})
		if k >= len(ts) || (ts[k].word != "和" && ts[k].word != "与" && ts[k].word != "及") {
			break
		}
		j = k + 1
	}
	return out
}

// zjoin writes a phrase as it was written, less 的 and any space between
// two Chinese words, keeping a space between Latin words.
func zjoin(ts []ztok, c string) string {
	var b strings.Builder
	for i, t := range ts {
		if t.word == "的" {
			continue
		}
		if i > 0 && b.Len() > 0 && strings.TrimSpace(c[ts[i-1].end:t.start]) == "" && ts[i-1].end < t.start &&
			latin(ts[i-1].word) && latin(t.word) {
			b.WriteByte(' ')
		}
		b.WriteString(t.word)
	}
	return b.String()
}

func latin(s string) bool {
	r, _ := utf8.DecodeLastRuneInString(s)
	return r < unicode.MaxLatin1 && (unicode.IsLetter(r) || unicode.IsDigit(r))
}

// zfrom reads 从A迁移到B (uses B instead of A) and 从A搬到B (lives in
// B).
func zfrom(ts []ztok, i int, c string, w who) ([]fact, int) {
	k := i + 1
	for k < len(ts) && znoun(ts[k]) {
		k++
	}
	if k == i+1 || k >= len(ts) {
		return nil, i + 1
	}
	old := zjoin(ts[i+1:k], c)
	return zmoveTo(ts, k, c, w, old)
}

// zmoveTo reads a move verb at ts[i] (迁移到, 搬到, 切换到) with the
// subject before it (before 从 when there is one) and the target after.
func zmoveTo(ts []ztok, i int, c string, w who, old string) ([]fact, int) {
	verb := ts[i].word
	j := i + 1
	for j < len(ts) && (ts[j].word == "到" || ts[j].word == "了" || ts[j].word == "成") {
		j++
	}
	if !strings.HasSuffix(verb, "到") && (j == i+1 || ts[j-1].word == "了") {
		return nil, i + 1 // 迁移数据: not a move to somewhere
	}
	start := i
	if old != "" {
		for start >= 0 && ts[start].word != "从" {
			start--
		}
	}
	objs := zobjects(ts, j, c)
	if len(objs) != 1 {
		return nil, j
	}
	pred := Uses
	if strings.HasPrefix(verb, "搬") {
		if !zplace[ts[j].pos] {
			return nil, j
		}
		pred = LivesIn
	}
	subs := zsubjects(ts, zskipBack(ts, start-1), c, w, pred == LivesIn)
	var out []fact
	for _, s := range subs {
		out = append(out, fact{s: s.name, p: pred, o: objs[0].name, replaces: old, conf: min(s.conf, objs[0].conf)})
	}
	return out, j + 1
}

// zleader reads 小王是搜索服务的负责人: (搜索服务, owner, 小王).
func zleader(ts []ztok, i int, c string, w who) []fact {
	k := i - 1
	if k >= 0 && ts[k].word == "的" {
		k--
	}
	thing, from := znp(ts, k, c)
	if thing == "" || from == 0 || ts[from-1].word != "是" {
		return nil
	}
	subs := zsubjects(ts, zskipBack(ts, from-2), c, w, true)
	var out []fact
	for _, s := range subs {
		out = append(out, fact{s: thing, p: Owner, o: s.name, conf: s.conf})
	}
	return out
}

// zbelongs reads 计费服务归陈晨管: (计费服务, owner, 陈晨). jieba may glue
// the name and 管 into one unknown word.
func zbelongs(ts []ztok, i int, c string, w who) []fact {
	thing, _ := znp(ts, zskipBack(ts, i-1), c)
	if thing == "" || i+1 >= len(ts) {
		return nil
	}
	name := ts[i+1].word
	switch {
	case i+2 < len(ts) && ts[i+2].word == "管":
	case strings.HasSuffix(name, "管") && name != "管" && i+2 == len(ts):
		name = strings.TrimSuffix(name, "管")
	default:
		return nil
	}
	if name == "我" {
		name = w.speaker
	}
	if name == "" {
		return nil
	}
	return []fact{{s: thing, p: Owner, o: name, conf: 0.85}}
}
