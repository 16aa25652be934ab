package aaak

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// dictTagger is a test double of the Chinese segmenter that Palace wires in
// through core/cjk (jieba). It is not a mock of anything this package ships:
// it segments CJK runs by forward maximum matching over a small fixed
// dictionary with jieba-style POS tags, tags ASCII runs "eng", and tags every
// other character "x", which is what a real segmenter does with them. An
// unknown CJK character becomes a one-character word tagged "x".
type dictTagger struct {
	dict   map[string]string
	maxLen int
}

// testDictionary covers the Chinese fixtures, as word/POS pairs.
const testDictionary = `
我们/r 决定/v 把/p 抽屉/n 原文/n 存进/v 数据库/n 因为/c 检索/vn 比/p 存储/vn 更/d 难/a
张伟/nr 负责/v 搜索/vn 模块/n 他/r 建议/v 先/d 用/p 全文/n 索引/n 再/d 加/v 向量/n
北京/ns 团队/n 担心/v 中文/nz 分词/n 的/uj 质量/n 所以/c 选择/v 了/ul 结巴/nz
分词器/n 在/p 构建/v 时/ng 嵌入/v 词典/n 避免/v 运行时/n 找/v 不到/v 文件/n
第一次/m 测试/vn 查询/vn 延迟/vn 只有/c 十二/m 毫秒/q 大家/r 都/d 很/d 开心/a
不会/v 摘要/n 当作/v 格式/n 只/d 用于/v 输出/vn
今天/t 打开/v 必须/d 说/v 不/d 需要/v 但是/c 两个/m 字/n 会/v 结果/n 最后/d 普通/a
切分/v 王芳/nr 惊讶/a 混合/vn 提高/v 三个/m 百分点/n
`

func newDictTagger() *dictTagger {
	d := &dictTagger{dict: map[string]string{}}
	for _, pair := range strings.Fields(testDictionary) {
		w, pos, _ := strings.Cut(pair, "/")
		d.dict[w] = pos
		d.maxLen = max(d.maxLen, utf8.RuneCountInString(w))
	}
	return d
}

func (d *dictTagger) Tag(text string) []TaggedWord {
	var out []TaggedWord
	rs := []rune(text)
	for i := 0; i < len(rs); {
		switch r := rs[i]; {
		case isCJK(r):
			n := min(d.maxLen, len(rs)-i)
			for ; n > 1; n-- {
				if _, ok := d.dict[string(rs[i:i+n])]; ok {
					break
				}
			}
			w := string(rs[i : i+n])
			pos, ok := d.dict[w]
			if !ok {
				pos = "x"
			}
			out = append(out, TaggedWord{Word: w, POS: pos})
			i += n
		case r < utf8.RuneSelf && (unicode.IsLetter(r) || unicode.IsDigit(r)):
			j := i
			for j < len(rs) && rs[j] < utf8.RuneSelf && (unicode.IsLetter(rs[j]) || unicode.IsDigit(rs[j])) {
				j++
			}
			out = append(out, TaggedWord{Word: string(rs[i:j]), POS: "eng"})
			i = j
		default:
			out = append(out, TaggedWord{Word: string(r), POS: "x"})
			i++
		}
	}
	return out
}
