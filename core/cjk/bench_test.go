package cjk

import (
	"strings"
	"testing"
)

// A coding agent's note: Chinese prose with the usual English identifiers.
const chineseSample = `我们在核心模块里用SQLite的FTS5实现了全文检索，但是unicode61分词器不会切分中文，
所以写入之前先用结巴分词把中文切成词语，再用空格连接。查询时也做同样的处理，保证索引和查询对称。
认证中间件负责校验访问令牌，失败时返回401并记录结构化日志。知识图谱里的实体来自词性标注：
人名、地名、机构名分别对应nr、ns、nt。下一步要给向量检索加上缓存，并为数据库迁移写回归测试。
`

const englishSample = `We implemented full-text search in the core module with SQLite FTS5, but the
unicode61 tokenizer does not segment Chinese, so Chinese text is cut into words before it is written.
The authentication middleware validates access tokens and returns 401 with a structured log entry on
failure. Entities in the knowledge graph come from part-of-speech tagging; next we add a cache to
vector search and write regression tests for the database migration.
`

func benchmarkIndex(b *testing.B, sample string) {
	s := sharedSegmenter(b)
	// About 9-13 KB: a large memory entry.
	text := strings.Repeat(sample, 16)
	// Load the dictionaries outside the timer.
	if _, err := s.SegmentForIndex("预热"); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if _, err := s.SegmentForIndex(text); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkSegmentForIndexChinese(b *testing.B) { benchmarkIndex(b, chineseSample) }
func BenchmarkSegmentForIndexEnglish(b *testing.B) { benchmarkIndex(b, englishSample) }

func BenchmarkSegmentQueryChinese(b *testing.B) {
	s := sharedSegmenter(b)
	const q = "认证中间件 令牌校验 知识图谱"
	if _, err := s.SegmentQuery(q); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(q)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := s.SegmentQuery(q); err != nil {
			b.Fatal(err)
		}
	}
}

// The fixed cost a process pays before NewJieba when the cache is already
// filled: hashing the embedded dictionaries and checking the five files.
func BenchmarkMaterialiseReuse(b *testing.B) {
	dir := b.TempDir()
	if _, err := materialise(dir); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := materialise(dir); err != nil {
			b.Fatal(err)
		}
	}
}
