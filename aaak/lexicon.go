package aaak

// The read-only word tables behind the encoder and the round-trip measure.
// They are small on purpose: AAAK's extraction is a cheap heuristic, and
// SPEC.md says so. Cue patterns follow one convention (compiled once by
// compileCues, matched by matchCues):
//   - ASCII patterns match whole lowercased words; every word of the pattern
//     must match in sequence, the last one as a prefix ("decid" matches
//     "decided", "decision") unless it ends in '=' (exact: "api=").
//   - Patterns containing CJK match as substrings of the text.

// stopWords are English function words that carry no fact on their own.
// Negations are deliberately absent (see negations).
var stopWords = setOf(
	"a", "about", "above", "across", "after", "afterwards", "again", "against", "all", "almost", "along",
	"already", "also", "although", "always", "am", "among", "an", "and", "another", "any", "anyone",
	"anything", "are", "around", "as", "at", "back", "be", "became", "because", "become", "been", "before",
	"being", "below", "between", "both", "but", "by", "can", "could", "did", "do", "does", "doing",
	"done", "down", "during", "each", "either", "else", "enough", "etc", "even", "ever", "every", "few",
	"for", "from", "further", "get", "gets", "getting", "got", "had", "has", "have", "having", "he",
	"her", "here", "hers", "herself", "him", "himself", "his", "how", "however", "i", "i'd", "i'll",
	"i'm", "i've", "if", "in", "into", "is", "it", "it's", "its", "itself", "just", "least", "less",
	"let", "let's", "like", "made", "make", "makes", "many", "may", "maybe", "me", "might", "mine",
	"more", "most", "much", "must", "my", "myself", "now", "of", "off", "often", "ok", "okay", "on",
	"once", "one", "only", "onto", "or", "other", "others", "otherwise", "our", "ours", "ourselves",
	"out", "over", "own", "per", "perhaps", "please", "quite", "rather", "really", "same", "say",
	"says", "said", "see", "seem", "seems", "several", "shall", "she", "should", "since", "so", "some",
	"something", "still", "such", "than", "that", "that's", "the", "their", "theirs", "them",
	"themselves", "then", "there", "there's", "these", "they", "they'd", "they'll", "they're",
	"they've", "this", "those", "though", "through", "thus", "to", "too", "toward", "towards", "under",
	"until", "up", "upon", "us", "very", "via", "was", "we", "we'd", "we'll", "we're", "we've", "well",
	"were", "what", "what's", "when", "whenever", "where", "whereas", "whether", "which", "while",
	"who", "whom", "whose", "why", "will", "with", "within", "would", "yes", "yet", "you", "you'd",
	"you'll", "you're", "you've", "your", "yours", "yourself", "yourselves",
)

// negations are content words even though they are short and common: a
// summary that drops "not" reverses the fact, so the round-trip measure must
// notice when they are lost, and the encoder must be able to keep them.
var negations = setOf(
	"no", "not", "never", "none", "nor", "nothing", "nobody", "neither", "without", "cannot",
	"can't", "don't", "doesn't", "didn't", "won't", "wouldn't", "shouldn't", "couldn't", "isn't",
	"aren't", "wasn't", "weren't", "hasn't", "haven't", "hadn't",
	"不", "没", "没有", "未", "无", "非", "别", "勿", "不是", "不要", "不能", "无法",
)

// zhStopWords are frequent Chinese words that the tagger may tag as verbs or
// nouns but that carry no fact on their own.
var zhStopWords = setOf(
	"进行", "可以", "能够", "成为", "作为", "需要", "通过", "一个", "这个", "那个", "这些", "那些",
	"我们", "你们", "他们", "它们", "已经", "时候", "东西", "方面", "问题", "情况", "表示", "认为",
)

// zhFunctionChars split CJK runs into candidate words when no tagger is
// available. Negation characters are not among them, so they stay inside
// the chunk they qualify.
var zhFunctionChars = setOf(
	"的", "了", "是", "在", "和", "与", "及", "或", "把", "被", "就", "也", "都", "而", "并", "对",
	"从", "向", "给", "让", "这", "那", "个", "们", "我", "你", "他", "她", "它", "一", "有", "为",
	"以", "于", "之", "其", "所", "等", "将", "已", "还", "又", "很", "最", "更", "再", "吗", "呢",
	"吧", "啊", "着", "过", "得", "地", "要", "会", "能", "可", "该", "此", "但", "因", "如", "若",
	"则", "即", "由", "到", "用", "使", "每", "各", "些", "里", "后", "前", "时", "中",
)

// abbreviations end in '.' without ending a sentence.
var abbreviations = setOf("e.g", "i.e", "eg", "ie", "vs", "mr", "mrs", "ms", "dr", "prof", "st", "approx", "cf", "fig", "al", "inc", "ltd", "jr", "sr")

type cue struct {
	pattern string
	value   string
}

// flagCues map cue words, English and Chinese, to flags. "because" and
// 因为 signal a decision's rationale, as in mempal.
var flagCues = []cue{
	{"decid", "DECISION"}, {"decision", "DECISION"}, {"chose", "DECISION"}, {"choose", "DECISION"},
	{"chosen", "DECISION"}, {"switch to", "DECISION"}, {"switched to", "DECISION"}, {"migrat", "DECISION"},
	{"replac", "DECISION"}, {"recommend", "DECISION"}, {"because", "DECISION"}, {"adopt", "DECISION"},
	{"settled on", "DECISION"}, {"went with", "DECISION"}, {"agreed", "DECISION"}, {"opted", "DECISION"},
	{"决定", "DECISION"}, {"决策", "DECISION"}, {"选择", "DECISION"}, {"选用", "DECISION"},
	{"采用", "DECISION"}, {"采纳", "DECISION"}, {"改用", "DECISION"}, {"切换", "DECISION"},
	{"迁移", "DECISION"}, {"替换", "DECISION"}, {"推荐", "DECISION"}, {"因为", "DECISION"},

	{"origin", "ORIGIN"}, {"founded", "ORIGIN"}, {"began", "ORIGIN"}, {"genesis", "ORIGIN"},
	{"inception", "ORIGIN"}, {"first version", "ORIGIN"}, {"first time", "ORIGIN"}, {"started", "ORIGIN"},
	{"起源", "ORIGIN"}, {"起初", "ORIGIN"}, {"最初", "ORIGIN"}, {"创立", "ORIGIN"}, {"创建", "ORIGIN"},
	{"诞生", "ORIGIN"}, {"第一次", "ORIGIN"}, {"第一版", "ORIGIN"},

	{"core", "CORE"}, {"fundamental", "CORE"}, {"essential", "CORE"}, {"principle", "CORE"},
	{"invariant", "CORE"}, {"核心", "CORE"}, {"原则", "CORE"}, {"根本", "CORE"}, {"理念", "CORE"},

	{"pivot", "PIVOT"}, {"turning point", "PIVOT"}, {"realized", "PIVOT"}, {"realised", "PIVOT"},
	{"breakthrough", "PIVOT"}, {"reversed", "PIVOT"}, {"abandon", "PIVOT"}, {"changed course", "PIVOT"},
	{"转折", "PIVOT"}, {"转向", "PIVOT"}, {"突破", "PIVOT"}, {"放弃", "PIVOT"}, {"顿悟", "PIVOT"},

	{"api=", "TECHNICAL"}, {"apis=", "TECHNICAL"}, {"database", "TECHNICAL"}, {"schema", "TECHNICAL"},
	{"index", "TECHNICAL"}, {"query", "TECHNICAL"}, {"queries", "TECHNICAL"}, {"server", "TECHNICAL"},
	{"protocol", "TECHNICAL"}, {"cache", "TECHNICAL"}, {"latency", "TECHNICAL"}, {"architect", "TECHNICAL"},
	{"deploy", "TECHNICAL"}, {"compil", "TECHNICAL"}, {"config", "TECHNICAL"}, {"framework", "TECHNICAL"},
	{"infrastructure", "TECHNICAL"}, {"algorithm", "TECHNICAL"}, {"benchmark", "TECHNICAL"},
	{"sqlite", "TECHNICAL"}, {"embedding", "TECHNICAL"}, {"tokeniz", "TECHNICAL"}, {"parser", "TECHNICAL"},
	{"数据库", "TECHNICAL"}, {"接口", "TECHNICAL"}, {"索引", "TECHNICAL"}, {"查询", "TECHNICAL"},
	{"服务器", "TECHNICAL"}, {"协议", "TECHNICAL"}, {"缓存", "TECHNICAL"}, {"延迟", "TECHNICAL"},
	{"架构", "TECHNICAL"}, {"部署", "TECHNICAL"}, {"编译", "TECHNICAL"}, {"配置", "TECHNICAL"},
	{"框架", "TECHNICAL"}, {"算法", "TECHNICAL"}, {"检索", "TECHNICAL"}, {"分词", "TECHNICAL"},

	{"password", "SENSITIVE"}, {"passphrase", "SENSITIVE"}, {"secret", "SENSITIVE"},
	{"credential", "SENSITIVE"}, {"private key", "SENSITIVE"}, {"api key", "SENSITIVE"},
	{"access token", "SENSITIVE"}, {"sensitive", "SENSITIVE"}, {"pii=", "SENSITIVE"},
	{"密码", "SENSITIVE"}, {"密钥", "SENSITIVE"}, {"凭证", "SENSITIVE"}, {"隐私", "SENSITIVE"},
	{"敏感", "SENSITIVE"}, {"令牌", "SENSITIVE"},
}

// emotionCues map cue words, English and Chinese, to emotion codes.
var emotionCues = []cue{
	{"determined", "determ"}, {"determination", "determ"}, {"resolved to", "determ"}, {"committed to", "determ"},
	{"决心", "determ"}, {"坚持", "determ"},
	{"confident", "convict"}, {"convinced", "convict"}, {"确信", "convict"}, {"坚信", "convict"},
	{"worr", "anx"}, {"anxious", "anx"}, {"nervous", "anx"}, {"concern", "anx"}, {"担心", "anx"}, {"焦虑", "anx"}, {"担忧", "anx"},
	{"excit", "excite"}, {"thrill", "excite"}, {"兴奋", "excite"}, {"激动", "excite"},
	{"frustrat", "frust"}, {"annoy", "frust"}, {"irritat", "frust"}, {"沮丧", "frust"}, {"烦躁", "frust"}, {"恼火", "frust"},
	{"confus", "confuse"}, {"puzzl", "confuse"}, {"baffl", "confuse"}, {"困惑", "confuse"}, {"迷惑", "confuse"},
	{"love", "love"}, {"adore", "love"}, {"喜爱", "love"}, {"热爱", "love"},
	{"angry", "rage"}, {"furious", "rage"}, {"hate", "rage"}, {"愤怒", "rage"}, {"生气", "rage"},
	{"hope", "hope"}, {"hoping", "hope"}, {"希望", "hope"}, {"期待", "hope"},
	{"afraid", "fear"}, {"scared", "fear"}, {"fear", "fear"}, {"害怕", "fear"}, {"恐惧", "fear"},
	{"trust", "trust"}, {"信任", "trust"}, {"信赖", "trust"},
	{"happy", "joy"}, {"glad", "joy"}, {"delight", "joy"}, {"joy", "joy"}, {"开心", "joy"}, {"高兴", "joy"}, {"快乐", "joy"},
	{"sad=", "grief"}, {"grief", "grief"}, {"disappoint", "grief"}, {"悲伤", "grief"}, {"难过", "grief"}, {"失望", "grief"},
	{"surpris", "surpr"}, {"unexpected", "surpr"}, {"惊讶", "surpr"}, {"意外", "surpr"}, {"没想到", "surpr"},
	{"grateful", "grat"}, {"thank", "grat"}, {"感谢", "grat"}, {"感激", "grat"}, {"感恩", "grat"},
	{"curious", "curious"}, {"curiosity", "curious"}, {"好奇", "curious"},
	{"amazed", "wonder"}, {"awe", "wonder"}, {"惊叹", "wonder"},
	{"relieved", "relief"}, {"relief", "relief"}, {"松了口气", "relief"}, {"放心", "relief"}, {"终于", "relief"},
	{"satisf", "satis"}, {"pleased", "satis"}, {"满意", "satis"},
	{"vulnerab", "vul"}, {"脆弱", "vul"},
	{"tender", "tender"}, {"温柔", "tender"},
	{"doubt", "doubt"}, {"unsure", "doubt"}, {"skeptic", "doubt"}, {"怀疑", "doubt"}, {"不确定", "doubt"},
	{"exhaust", "exhaust"}, {"tired", "exhaust"}, {"burned out", "exhaust"}, {"疲惫", "exhaust"}, {"累了", "exhaust"},
	{"heartfelt", "warmth"}, {"温暖", "warmth"},
	{"funny", "humor"}, {"hilarious", "humor"}, {"laugh", "humor"}, {"好笑", "humor"}, {"幽默", "humor"},
	{"calm", "peace"}, {"peaceful", "peace"}, {"平静", "peace"},
	{"despair", "despair"}, {"hopeless", "despair"}, {"绝望", "despair"},
	{"passion", "passion"}, {"热情", "passion"},
}

// emotionNames spell out the codes for the decoder, and let the legacy
// reader map a spelled-out MemPalace emotion back to its code.
var emotionNames = map[string]string{
	"joy": "joy", "fear": "fear", "trust": "trust", "grief": "grief", "wonder": "wonder", "rage": "rage",
	"love": "love", "hope": "hope", "despair": "despair", "peace": "peace", "relief": "relief",
	"humor": "humor", "tender": "tenderness", "raw": "rawness", "doubt": "doubt", "anx": "anxiety",
	"exhaust": "exhaustion", "convict": "conviction", "passion": "passion", "warmth": "warmth",
	"curious": "curiosity", "grat": "gratitude", "frust": "frustration", "confuse": "confusion",
	"satis": "satisfaction", "excite": "excitement", "determ": "determination", "surpr": "surprise",
	"vul": "vulnerability",
}

func setOf(words ...string) map[string]bool {
	m := make(map[string]bool, len(words))
	for _, w := range words {
		m[w] = true
	}
	return m
}
