package secrets

import (
	"encoding/base64"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

// Secrets in this file are built when the tests run: samples are split
// inside their key name or token prefix (j), and random parts come from
// tok, so the file itself holds nothing that GitHub push protection or
// 'palace mine' would flag. Templates mark where a secret goes with @@,
// which the miner reads as a placeholder.

// j joins pieces of a sample.
func j(parts ...string) string { return strings.Join(parts, "") }

const (
	alnum  = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
	b64    = alnum + "+/"
	upper  = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
	digits = "0123456789"
)

// rnd is n characters of alphabet, the same for the same seed.
func rnd(seed uint64, n int, alphabet string) string {
	r := rand.New(rand.NewPCG(seed, 7))
	b := make([]byte, n)
	for i := range b {
		b[i] = alphabet[r.IntN(len(alphabet))]
	}
	return string(b)
}

// tok is a random alphanumeric token body with at least one digit, one
// capital and one small letter, as real ones have.
func tok(seed uint64, n int) string {
	b := []byte(rnd(seed, n, alnum))
	b[1], b[4], b[7] = '7', 'Q', 'k'
	return string(b)
}

type secretCase struct {
	name    string
	tmpl    string // the text, with @@ where each secret goes
	secrets []string
	kinds   []string
}

// build gives the input, the expected output and findings.
func (c secretCase) build() (in, want string, fs []Finding) {
	parts := strings.Split(c.tmpl, "@@")
	if len(parts) != len(c.secrets)+1 || len(c.kinds) != len(c.secrets) {
		panic(fmt.Sprintf("%s: %d slots, %d secrets, %d kinds", c.name, len(parts)-1, len(c.secrets), len(c.kinds)))
	}
	var bi, bw strings.Builder
	line := 1
	for i, p := range parts {
		bi.WriteString(p)
		bw.WriteString(p)
		line += strings.Count(p, "\n")
		if i < len(c.secrets) {
			fs = append(fs, Finding{Kind: c.kinds[i], Line: line})
			bi.WriteString(c.secrets[i])
			bw.WriteString(Marker(c.kinds[i]))
		}
	}
	return bi.String(), bw.String(), fs
}

func secretCases() []secretCase {
	one := func(name, tmpl, secret, kind string) secretCase {
		return secretCase{name: name, tmpl: tmpl, secrets: []string{secret}, kinds: []string{kind}}
	}
	basic := base64.StdEncoding.EncodeToString([]byte("deploy:" + tok(40, 14)))
	jwt := j("ey", "J", rnd(30, 30, alnum), ".ey", "J", rnd(31, 60, alnum), ".", rnd(32, 43, alnum+"-_"))
	return []secretCase{
		one("aws access key id", "[default]\naws_access_key_id = @@\nregion = eu-west-1\n", j("AK", "IA", rnd(1, 16, upper)), KindAWSAccessKey),
		one("aws temporary key id in prose", "the key @@ was leaked", j("AS", "IA", rnd(2, 16, upper)), KindAWSAccessKey),
		one("aws secret access key", "aws_secret_access_key = @@\n", rnd(3, 40, b64), KindEnvSecret),
		one("github classic token in .env", "GITHUB_TOKEN=@@\n", j("gh", "p_", tok(4, 36)), KindGitHub),
		one("github app token in JSON", `{"installation": "@@"}`, j("gh", "s_", tok(5, 36)), KindGitHub),
		one("github fine-grained token in a command", "git clone https://@@@github.com/org/repo", j("github", "_pat_", tok(6, 22), "_", tok(7, 59)), KindGitHub),
		one("gitlab token", "export CI_JOB=@@", j("gl", "pat-", tok(8, 20)), KindGitLab),
		one("slack bot token", "slack:\n  bot: @@\n", j("xo", "xb-", rnd(9, 12, digits), "-", rnd(10, 13, digits), "-", tok(11, 24)), KindSlack),
		one("slack webhook", "url: https://hooks.slack.com/services/@@\n", j("T", rnd(12, 8, upper), "/B", rnd(13, 8, upper), "/", tok(14, 24)), KindSlackWebhook),
		one("stripe secret key", `stripe.api_key = "@@"`, j("sk", "_live_", tok(15, 24)), KindStripe),
		one("openai project key", "OPENAI_API_KEY=@@\n", j("sk", "-proj-", tok(16, 48)), KindOpenAI),
		one("openai legacy key", "key: @@", j("sk", "-", tok(17, 48)), KindOpenAI),
		one("anthropic key", `client = Anthropic(api_key="@@")`, j("sk", "-ant-api03-", tok(18, 93)), KindAnthropic),
		one("google api key in a URL", `<script src="https://maps.example.com/js?key=@@"></script>`, j("AI", "za", rnd(19, 35, alnum+"-_")), KindGoogleAPI),
		one("npm token in .npmrc", "//registry.npmjs.org/:_authToken=@@\n", j("np", "m_", tok(20, 36)), KindNPM),
		one("pypi token", "[pypi]\nusername = __token__\npassword = @@\n", j("pypi-AgEIcHlw", "aS5vcmc", tok(21, 70)), KindPyPI),
		one("hugging face token", "HF_HUB=@@", j("h", "f_", tok(22, 34)), KindHuggingFace),
		one("sendgrid key", "mail: @@", j("S", "G.", tok(23, 22), ".", tok(24, 43)), KindSendGrid),
		one("jwt after Bearer", `curl -H "Authorization: Bearer @@" https://api.example.com`, jwt, KindJWT),
		one("opaque bearer token", `-H 'Authorization: Bear`+`er @@'`, tok(25, 40), KindBearer),
		one("basic credentials", "Authorization: Ba"+"sic @@\r\n", basic, KindBasicAuth),
		one("password in a database URL", "DATABASE_URL=postgres://app:@@@db.internal:5432/app\n", j("p4", "ss-", tok(26, 12)), KindURLPassword),
		one("password in a redis URL without user", "redis://:@@@cache:6379/0", tok(27, 16), KindURLPassword),
		one(".env password", "DB_HOST=db\nDB_PASS"+"WORD=@@\nDB_PORT=5432\n", "hunter22", KindEnvSecret),
		one(".env letters-only password", "export SMTP_PASS"+"WORD=@@\n", "correcthorse", KindEnvSecret),
		one("yaml password", "database:\n  user: app\n  pass"+"word: @@\n", "s3cr3t!x", KindEnvSecret),
		one("json client secret", `{"client_id": "web", "client_sec`+`ret": "@@"}`, j("Gx", tok(28, 30)), KindEnvSecret),
		one("python token", "tok"+"en = '@@'\n", j("t0k", "-", rnd(29, 12, alnum)), KindEnvSecret),
		one("go api key", `apiK`+`ey := "@@"`, j("k3y", "_", tok(33, 16)), KindEnvSecret),
		one("spring property", "spring.datasource.pass"+"word=@@", "Tr0ub4dor&3", KindEnvSecret),
		one("http header", "X-Api-K"+"ey: @@\n", tok(34, 32), KindEnvSecret),
		one("query string", "GET /hook?tok"+"en=@@&id=3 HTTP/1.1", tok(35, 24), KindEnvSecret),
		one("high entropy in .env", "SESSION_SIGNING=@@\n", tok(36, 40), KindHighEntropy),
		one("high entropy quoted in JSON", `{"cookie": "@@"}`, tok(37, 32), KindHighEntropy),
		one("high entropy in YAML", "webhook:\n  signing: @@  # rotate monthly\n", rnd(38, 44, b64), KindHighEntropy),
		// Quotes escaped with a backslash: inside a value, and around keys
		// and values of JSON written inside a string (logs, fixtures,
		// pasted tool output).
		one("escaped quote inside a YAML value", "pass"+"word: \"@@\"\n", j("Xk92", `\"`, "lQz!p"), KindEnvSecret),
		one("JSON value starting with an escaped quote", `{"pass`+`word": "@@"}`, j("a", `\"`, "Xk92lQz!p"), KindEnvSecret),
		one("JSON inside a log line's string", `level=info body="{\"user\":\"bob\",\"pass`+`word\":\"@@\"}"`, j("Xk92", "lQz!p"), KindEnvSecret),
		one("escaped JSON holding a quote", `{\"pass`+`word\": \"@@\"}`, j("Xk9", `\\\"`, "2lQz"), KindEnvSecret),
		one("high entropy in escaped JSON", `{\"cookie\":\"@@\"}`, tok(41, 32), KindHighEntropy),
		// A shell's single quotes have no escapes: a last backslash is the
		// password's.
		one("shell password ending in a backslash", "export DB_PASS"+"WORD='@@'\n", j("Xk92", "lQz", `\`), KindEnvSecret),
		one("one-word key ending in password", "PGPASS"+"WORD=@@ psql -h db -U app\n", j("Xk92", "lQzp"), KindEnvSecret),
		// An unquoted value ends at a quote, as for secret-named keys.
		one("high entropy in a quoted docker -e", `docker run -e "SESSION_SIGNING=@@" app`, tok(42, 40), KindHighEntropy),
		// Passwords stated in prose (chat, notes, tickets) and given on
		// MySQL and MariaDB command lines.
		one("password stated in prose", "the prod db pass"+"word is: @@\n", j("Tr0ub4", "dor-3x"), KindPassword),
		one("password in a sentence", "The staging pass"+"word was @@. Rotate it.", j("hunter", "22!x"), KindPassword),
		one("password after a colon in a chat line", "> db pass"+"word: @@ (rotated monthly)\n", j("S3cr", "et!x"), KindPassword),
		one("quoted password in prose", "the pass"+"word is '@@' for now", j("hunt", "er22"), KindPassword),
		one("password before a comma in prose", "- admin pass"+"word: @@, user admin\n", j("Xk92", "lQz"), KindPassword),
		one("mysql password option", "mysql -u root -p@@ app\n", j("S3cret", "Pass99"), KindPassword),
		one("mysqldump long password option", "mysqldump --pass"+"word=@@ shop > shop.sql", j("S3c", "ret99"), KindPassword),
		one("mariadb-dump password in quotes", `mariadb-dump -uroot -p"@@" shop`, j("S3c", "ret 99"), KindPassword),
		// Files and formats that hold credentials without a secret-named
		// assignment of the usual kind (issue #16, item 9).
		one(".netrc on one line", "machine api.example.com login bob pass"+"word @@\n", j("Xk92", "lQzp7"), KindPassword),
		one(".netrc on its lines", "machine example.com\n  login bob\n  pass"+"word @@\n", j("hunter", "22x"), KindPassword),
		one(".pgpass", "db.internal:5432:app:bob:@@\n", j("Xk92", "lQzp7"), KindPassword),
		one(".pgpass password with an escaped colon", "localhost:*:app:bob:@@\n", j(`Xk92\:`, "lQzp7"), KindPassword),
		one(".pgpass with wildcards and a letters-only password", "*:*:*:postgres:@@\n", j("letme", "inplease"), KindPassword),
		one("docker config.json auth", `{"auths": {"https://index.docker.io/v1/": {"au`+`th": "@@"}}}`,
			base64.StdEncoding.EncodeToString([]byte("bob:hunter22")), KindBasicAuth),
		one(".npmrc _auth", "_au"+"th=@@\n", base64.StdEncoding.EncodeToString([]byte("bob:hunter22")), KindBasicAuth),
		one("azure storage connection string", `conn := "DefaultEndpointsProtocol=https;AccountName=acct;AccountK`+`ey=@@;EndpointSuffix=core.windows.net"`,
			rnd(43, 86, b64)+"==", KindEnvSecret),
		one(".npmrc legacy uuid token", "//registry.npmjs.org/:_authTok"+"en=@@\n", "abcd1234-ef56-7890-abcd-ef1234567890", KindEnvSecret),
		one("api key header in curl", `curl -H 'X-Api-K`+`ey: @@' https://api.example.com`, tok(44, 16), KindEnvSecret),
		one("api key header in a log line", "> X-Api-K"+"ey: @@\n", tok(45, 16), KindEnvSecret),
		one("xml password element", "<server>\n  <id>repo</id>\n  <pass"+"word>@@</pass"+"word>\n</server>\n", j("S3cret", "Pass99"), KindEnvSecret),
		one("xml token element", "<apiTok"+"en>@@</apiTok"+"en>", tok(46, 24), KindEnvSecret),
		one("lower-case password= in a sentence", "set pass"+"word=@@ in the config\n", j("hunter", "22x"), KindPassword),
		one("password option of a command", "psql --pass"+"word=@@ -h db\n", j("S3c", "ret99"), KindPassword),
		{name: "several on their lines", tmpl: "A=1\nGITHUB_TOKEN=@@\n\nDB_PASS" + "WORD=@@\nurl: https://u:@@@h.example\n",
			secrets: []string{j("gh", "o_", tok(39, 36)), "pa55-w0rd", "hunter-22"},
			kinds:   []string{KindGitHub, KindEnvSecret, KindURLPassword}},
	}
}

func TestRedactRealisticSamples(t *testing.T) {
	for _, c := range secretCases() {
		t.Run(c.name, func(t *testing.T) {
			in, want, wantFs := c.build()
			got, fs := Redact(in)
			if got != want {
				t.Errorf("Redact(%q)\n got %q\nwant %q", in, got, want)
			}
			if !reflect.DeepEqual(fs, wantFs) {
				t.Errorf("findings %+v, want %+v", fs, wantFs)
			}
			for _, s := range c.secrets {
				assertGone(t, got, s)
			}
			// Redacting again changes nothing and finds nothing: markers
			// are not secrets.
			if again, fs := Redact(got); again != got || len(fs) != 0 {
				t.Errorf("second pass changed %q into %q (%+v)", got, again, fs)
			}
		})
	}
}

// assertGone checks that no 8-byte piece of secret is left in out (the
// whole of it when shorter).
func assertGone(t *testing.T, out, secret string) {
	t.Helper()
	n := min(8, len(secret))
	for i := 0; i+n <= len(secret); i++ {
		if strings.Contains(out, secret[i:i+n]) {
			t.Errorf("output %q still holds %q of the secret", out, secret[i:i+n])
			return
		}
	}
}

func TestRedactPrivateKeys(t *testing.T) {
	body := func(seed uint64, lines int) []string {
		var out []string
		for i := 0; i < lines; i++ {
			out = append(out, rnd(seed+uint64(i), 64, b64))
		}
		return out
	}
	begin := func(label string) string { return j("-----BEG", "IN ", label, "-----") }
	end := func(label string) string { return j("-----EN", "D ", label, "-----") }
	marker := Marker(KindPrivateKey)

	t.Run("PEM block in YAML keeps its BEGIN and END lines and its line count", func(t *testing.T) {
		b := body(100, 4)
		in := "tls:\n  key: |\n    " + begin("RSA PRIV"+"ATE KEY") + "\n    " + strings.Join(b, "\n    ") + "\n    " + end("RSA PRIV"+"ATE KEY") + "\nport: 443\n"
		want := "tls:\n  key: |\n    " + begin("RSA PRIV"+"ATE KEY") + "\n    " + marker + "\n\n\n\n    " + end("RSA PRIV"+"ATE KEY") + "\nport: 443\n"
		got, fs := Redact(in)
		if got != want {
			t.Errorf("got\n%s\nwant\n%s", got, want)
		}
		if !reflect.DeepEqual(fs, []Finding{{KindPrivateKey, 4}}) {
			t.Errorf("findings %+v, want one private-key on line 4", fs)
		}
		for _, l := range b {
			assertGone(t, got, l)
		}
	})
	t.Run("escaped in a JSON service account", func(t *testing.T) {
		b := body(200, 3)
		in := `{"type": "service_account", "private_k` + `ey": "` + begin("PRIV"+"ATE KEY") + `\n` + strings.Join(b, `\n`) + `\n` + end("PRIV"+"ATE KEY") + `\n", "client_email": "x@y.iam"}`
		want := `{"type": "service_account", "private_k` + `ey": "` + begin("PRIV"+"ATE KEY") + marker + end("PRIV"+"ATE KEY") + `\n", "client_email": "x@y.iam"}`
		got, fs := Redact(in)
		if got != want || len(fs) != 1 || fs[0].Kind != KindPrivateKey {
			t.Errorf("got %q (%+v)\nwant %q", got, fs, want)
		}
	})
	t.Run("OpenSSH and PGP labels, CRLF", func(t *testing.T) {
		for _, label := range []string{"OPENSSH PRIV" + "ATE KEY", "PGP PRIV" + "ATE KEY BLOCK", "ENCRYPTED PRIV" + "ATE KEY", "EC PRIV" + "ATE KEY"} {
			b := body(300, 2)
			in := begin(label) + "\r\n" + strings.Join(b, "\r\n") + "\r\n" + end(label) + "\r\n"
			want := begin(label) + "\r\n" + marker + "\n\n" + end(label) + "\r\n"
			if got, _ := Redact(in); got != want {
				t.Errorf("%s: got %q, want %q", label, got, want)
			}
		}
	})
	t.Run("a block cut short loses its base64 lines only", func(t *testing.T) {
		b := body(400, 3)
		in := "pasted:\n" + begin("RSA PRIV"+"ATE KEY") + "\n" + strings.Join(b, "\n") + "\nand then the mail went on\n"
		want := "pasted:\n" + begin("RSA PRIV"+"ATE KEY") + "\n" + marker + "\n\n\nand then the mail went on\n"
		if got, _ := Redact(in); got != want {
			t.Errorf("got %q, want %q", got, want)
		}
	})
	t.Run("certificates and public keys are not secret", func(t *testing.T) {
		for _, label := range []string{"CERTIFICATE", "PUBLIC KEY", "RSA PUBLIC KEY", "CERTIFICATE REQUEST"} {
			in := begin(label) + "\n" + strings.Join(body(500, 3), "\n") + "\n" + end(label) + "\n"
			if got, fs := Redact(in); got != in || fs != nil {
				t.Errorf("%s block changed: %+v", label, fs)
			}
		}
	})
	t.Run("code naming the armour lines is not a key", func(t *testing.T) {
		in := "const (\n\tpemStart = \"" + begin("PRIV"+"ATE KEY") + "\"\n\tpemEnd = \"" + end("PRIV"+"ATE KEY") + "\"\n)\n"
		if got, fs := Redact(in); got != in || fs != nil {
			t.Errorf("changed to %q (%+v)", got, fs)
		}
	})
}

// lookAlikes look like secrets to a careless eye and must survive as they
// are.
var lookAlikes = []string{
	// Digests and ids.
	"commit 9fceb02d0ae598e95dc970b74767f19372d61af8\nAuthor: A <a@example.com>",
	`{"sha": "9fceb02d0ae598e95dc970b74767f19372d61af8", "tree": {"sha": "4b825dc642cb6eb9a060e54bf8d69288fbee4904"}}`,
	`rev = "d8fa9ae4e0cbbb1a5ff3ab8e5c86ab2d1bf8a1c7"`,
	"golang.org/x/text v0.14.0 h1:ScX5w1eTa3QqT8oi6+ziP7dTV1S2+ALU0bI+0zXKWiQ=\ngolang.org/x/text v0.14.0/go.mod h1:18ZOQIKpY8NJVqYksKHtTdi31H5itFRjB5/qKTNYzSU=",
	`"integrity": "sha512-v2kDEe57lecTulaDIuNTPy3Ry4gLGJ6Z1O3vE1krgXZNrsQ+LFTGHVxVjcXPs17LhbZVGedAJv8XZ1tvj5FvSg=="`,
	"image: ghcr.io/org/app@sha256:4b825dc642cb6eb9a060e54bf8d69288fbee49044b825dc642cb6eb9a060e54b",
	`id = "123e4567-e89b-12d3-a456-426614174000"`,
	"request_id: 550e8400-e29b-41d4-a716-446655440000",
	// Base64 test data outside any assignment, and embedded images.
	"var fixtures = []string{\n\t\"TWFuIGlzIGRpc3Rpbmd1aXNoZWQsIG5vdCBvbmx5IGJ5IGhpcyByZWFzb24=\",\n}",
	`icon = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=="`,
	// AWS's documented example keys.
	"aws_access_key_id = AKIAIOSFODNN7EXAMPLE\naws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
	// Empty values, references and placeholders.
	`password = ""`,
	"password: ''",
	"token: ${TOKEN}",
	`"token": "${{ secrets.GITHUB_TOKEN }}"`,
	"DB_PASSWORD=$DB_PASSWORD",
	"password: {{ .Values.db.password }}",
	"api_key: <your-api-key>",
	"API_KEY=your_api_key_here",
	"password: changeme",
	"SECRET_KEY=xxxxxxxxxxxxxxxx",
	"password: '********'",
	"client_secret: REPLACE_ME",
	`key = os.Getenv("KEY")`,
	`apiKey := os.Getenv("OPENAI_API_KEY")`,
	`password = os.environ["DB_PASSWORD"]`,
	"const token = process.env.GITHUB_TOKEN;",
	"secret := cfg.Secret2",
	"password = request.form['password']",
	`let token = env::var("TOKEN")?;`,
	// Names, locations, counts and types of secrets.
	`secret_name = "db-password"`,
	"password_file: /run/secrets/db",
	"token_url: https://oauth2.example.com/token",
	"max_tokens: 4096",
	"tokenizer = cl100k_base",
	"AWS_ACCESS_KEY_ID_PARAM=/prod/app/aws-key-id",
	"password: string;",
	`token: str = ""`,
	"Password string `json:\"password\"`",
	`"password": "Mot de passe"`,
	`"token": "Used to authenticate API calls"`,
	"password_min_length = 12",
	"IMAGE_REL_ARM64_TOKEN = 0x000C",
	// Comparisons and prose.
	`if password == "hunter2" {`,
	"if token != expected {",
	"Set your password: it needs 12 characters.",
	"The bearer token is sent in the Authorization header.",
	"--- PASS: TestLogin (0.00s)",
	"PWD=/home/dev/src/app",
	// URLs without credentials, or with a placeholder for them.
	"https://example.com/path?q=1&page=2",
	"git@github.com:org/repo.git",
	"http://localhost:8080/@user/profile",
	"https://user:${PASS}@host.example/",
	"see http://host:8080/path@2x.png",
	// Identifiers, alphabets and paths, however long.
	"v.Op = OpAMD64MOVQstoreconst2",
	`const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"`,
	`fnname: "xor_uint32_4294967295",`,
	`const fips = "crypto/internal/fips140"`,
	`"subdir4": "overlayfiles/subdir4",`,
	"Algorithm: sha256WithRSAEncryption,",
	// Prefixes inside longer words.
	"mask-attribute-for-the-main-service-container-2024",
	"the AKIA prefix and the ghp_ prefix name token kinds",
	// Keys that end in pass or password without naming one.
	"PGPASSFILE=/home/dev/.pgpass",
	"SSH_ASKPASS=/usr/libexec/openssh/ssh-askpass",
	`proxy_bypass = "localhost,127.0.0.1"`,
	"PASSWORDLESS_LOGIN=enabled",
	"sudo: NOPASSWD=ALL",
	// Code that writes escaped JSON, and escaped JSON without a secret.
	`body := fmt.Sprintf("{\"token\": \"%s\"}", tok)`,
	`body := "{\"password\": \"" + pw + "\"}"`,
	`{\"password\": \"\"}`,
	`{\"api_key\": \"${API_KEY}\"}`,
	`"password": "Enter your \"password\" here"`,
	// Sentences about passwords that state none, and code that looks like
	// one.
	"The password is required.",
	`printf("Password is incorrect.");`,
	`printf(&quot;Password is correct.&quot;);`,
	`log.Printf("password is %q", pw)`,
	`msg := "password is "+pw+" now"`,
	"the password is cfg.DBPassword",
	"admin password: https://vault.example/prod/db",
	"f(user, password: pw2)",
	"    Password: pw2,",
	"login(password: hunter2);",
	"The password was reset; see the ticket.",
	// MySQL asking for the password, and placeholders for one.
	"mysql -u root -p shop",
	"mysql -u root -p$MYSQL_PWD shop",
	"mysql -u root -pPASSWORD shop",
	`import _ "github.com/go-sql-driver/mysql" // -parseTime`,
	"mysqlConfig -pXk92lQz",
	`cmd := "mysql -u root -p" + pw + " shop"`,
	// Code of golang.org/x/net that was redacted (issue #16, item 9): a
	// constant's name, a URN, a 4-digit test token.
	`	SettingNoRFC7540Priorities:   "NO_RFC7540_PRIORITIES",`,
	"\t\t\t\t\tTok" + "en: `urn:uuid:f81d4fae-7dec-11d0-a765-00a0c91e6bf6`,",
	"\t\tj: `{\"frame_type\":\"new_token\",\"tok" + "en\":\"0304\"}`,",
	// Sentences and code near the new formats.
	"machine example.com login bob pass" + "word reset",
	"reset your pass" + "word here",
	"connect(user=u, pass" + "word=pw2)",
	"if pass" + "word=pw2; err != nil {",
	"main.go:12:3: undefined: x",
	"12:30:45:123:456",
	"            0c:83:d8:21:2b:82:cb:23:98:23:63:e2:f7:97:8a:43:5b:f3:bd:92",
	"\t ee:68:76:17:1d:90:cc:92:93:07",
	"<pass" + "word>${env.DB_PASS}</pass" + "word>",
	"<pass" + "word></pass" + "word>",
	`headers := map[string]string{"X-Api-K` + `ey": apiKey}`,
	"for (i=0;apiKey=next();) {}",
	`	"encryptionKey": "encryptionKey1024",`,
	// A token's prefix alone, and an ellipsis for a password.
	`"Use GITHUB_TOKEN=gh` + `p_" + tok + " for now"`,
	"given to a command (`--pass" + "word=…`, `mysql -p…`)",
	// A public id in a URL's query is no secret however random it looks.
	"href:'https://www.youtube.com/watch?list=PLWz5rJ2EKKc9CBxr3BVjPTPoDPLdPIFCE&v='+videoId",
}

func TestLookAlikesSurvive(t *testing.T) {
	for _, in := range lookAlikes {
		if got, fs := Redact(in); got != in || fs != nil {
			t.Errorf("Redact changed a look-alike:\n in %q\nout %q\nfindings %+v", in, got, fs)
		}
	}
}

// TestEntropyThreshold measures the high-entropy rule: random values are
// caught at the rates the threshold's comment gives, and identifiers,
// words and paths of the same lengths are not.
func TestEntropyThreshold(t *testing.T) {
	for _, n := range []int{20, 32, 40, 64} {
		for _, alphabet := range []string{alnum, b64} {
			const samples = 2000
			caught := 0
			for i := 0; i < samples; i++ {
				if randomLooking(rnd(uint64(1000*n+i), n, alphabet)) {
					caught++
				}
			}
			// Misses: no digit among 20 characters (3%), the entropy
			// threshold (1%) and the word test (1%, less when longer).
			want := 0.97
			if n == 20 {
				want = 0.94
			}
			rate := float64(caught) / samples
			t.Logf("length %d, alphabet of %d: %.1f%% caught", n, len(alphabet), 100*rate)
			if rate < want {
				t.Errorf("length %d, alphabet of %d: %.3f of random values caught, want at least %.2f", n, len(alphabet), rate, want)
			}
		}
	}
	for _, v := range []string{
		"OpAMD64MOVQstoreconst2", "framepointerRegMIPS64", "TestIPv6LinkLocalUnicastTCP", "http2ErrNoCachedConn",
		"golang_org_x_text_v0_14_0", "internal/testdata/case12", "EncapsulationKeySize1024", "ge_4278190080_uint64",
		"0123456789abcdefghijklmnopqrstuvwxyz", "ABCDEFGHIJKLMNOPQRSTabcdefghijklmnopqrst0123456789",
		"9fceb02d0ae598e95dc970b74767f19372d61af8", "550e8400-e29b-41d4-a716-446655440000",
	} {
		if randomLooking(v) {
			t.Errorf("%q is taken for a random secret", v)
		}
	}
}

func TestSecretKeyNames(t *testing.T) {
	for key, want := range map[string]bool{
		"DB_PASSWORD": true, "clientSecret": true, "GITHUB_TOKEN": true, "x-api-key": true, "APIKey": true,
		"aws_secret_access_key": true, "_authToken": true, "spring.datasource.password": true, "SMTP_PASS": true,
		"passphrase": true, "signing_key": true,
		"secret_name": false, "token_url": false, "max_tokens": false, "password_file": false, "primary_key": false,
		"key": false, "PWD": false, "PASS": false, "tokenizer": false, "bypass": false, "AWS_ACCESS_KEY_ID": false,
		"auth": false, "passwordMinLength": false,
		"PGPASSWORD": true, "pgPassword": true, "MYSQL_ROOTPASSWORD": true,
		"PGPASSFILE": false, "SSH_ASKPASS": false, "passwordless": false, "NOPASSWD": false, "proxy_bypass": false,
	} {
		if got := secretKey(key); got != want {
			t.Errorf("secretKey(%q) = %v, want %v (words %v)", key, got, want, words(key))
		}
	}
}

// TestRedactKeepsLinesAndText checks the invariants on every sample: the
// same number of lines, and every line without a finding unchanged.
func TestRedactKeepsLinesAndText(t *testing.T) {
	for _, c := range secretCases() {
		in, _, _ := c.build()
		got, fs := Redact(in)
		gl, il := strings.Split(got, "\n"), strings.Split(in, "\n")
		if len(gl) != len(il) {
			t.Fatalf("%s: %d lines became %d", c.name, len(il), len(gl))
		}
		hit := map[int]bool{}
		for _, f := range fs {
			hit[f.Line] = true
		}
		for i := range il {
			if !hit[i+1] && gl[i] != il[i] {
				t.Errorf("%s: line %d changed without a finding: %q -> %q", c.name, i+1, il[i], gl[i])
			}
		}
	}
}

// adversarial are texts made of one unit repeated, each built so that a
// scanner reading on from every trigger to where its run, key, value or
// block ends would read the whole text again for each of them.
func adversarial(size int) map[string]string {
	begin := j("-----BEG", "IN PRIV", "ATE KEY-----")
	units := map[string]string{
		"secret words in one long key":      "key_",
		"token prefixes in one long run":    "sk-",
		"JWT headers in one long run":       "eyJ-",
		"keys in one long unquoted value":   "pass=",
		".env keys in one long value":       "PASS" + "WORD=",
		"quoted values on one long line":    `"pass` + `word": "` + j("Xk92", "lQz!p") + `", `,
		"BEGIN lines on one line, no END":   begin,
		"BEGIN lines glued to header lines": begin + "Proc-Type:",
		"tokens between assignments":        j("gh", "p_", tok(50, 36)) + " DB_PASS" + "WORD=" + j("hunter", "22") + "\n",
		"BEGIN lines, one a line, no END":   begin + "\n",
		"escaped quotes in one long value":  `pass` + `word: "\"`,
		"URL passwords on one long line":    "http://u:" + tok(51, 12) + "@h/",
		"assignments of long random values": "K=" + tok(52, 30) + ".",
		"passwords stated on one long line": "pass" + "word is: " + j("Tr0ub4", "dor-3x") + " ",
		"colon passwords glued in one run":  "pass" + "word:",
		"a colon password then glued keys":  "pass" + "word: x",
		"quoted prose passwords on a line":  "pass" + `word is "`,
		"mysql commands on one long line":   "mysql -u root -p" + j("S3cret", "99") + " ",
		"mysql names on one long line":      "mysql ",
		"netrc passwords on one long line":  "login bob pass" + "word " + j("Xk92", "lQzp7") + " ",
		"netrc logins glued in one run":     "login pass" + "word:",
		"pgpass separators on one line":     "db:5432:",
		"pgpass lines":                      "db:5432:app:bob:" + j("Xk92", "lQzp7") + "\n",
		"xml password elements on a line":   "<pass" + "word>",
		"connection string keys on a line":  ";AccountK" + "ey=",
		"passwords glued to '=' in prose":   " pass" + "word=",
		"curl commands on one long line":    "curl -u bob:" + j("S3cret", "99") + " ",
		"continued curl lines":              "curl -u \\\n",
		"API keys stated on one long line":  "the API key is " + j("9f86d0", "81884c7d659a2f") + " ",
		"short password keys glued":         "pw:pw=pw is ",
	}
	out := map[string]string{}
	for name, u := range units {
		out[name] = strings.Repeat(u, size/len(u))
	}
	// A password after a colon whose value is a long run of keys.
	out["colon password before a long run of keys"] = "pass" + "word: " + strings.Repeat("pass"+"word:", size/9)
	// One curl command given its user option again and again, with values
	// that are no password or whose quote never closes.
	out["curl options on one long line"] = "curl" + strings.Repeat(" -u bob:x", size/9)
	out["curl unclosed quoted users"] = "curl" + strings.Repeat(` -u "bob:`, size/9)
	// A JWT whose header run is preceded by many other headers.
	out["JWT headers before one payload"] = strings.Repeat("eyJ-", size/8) + "eyJaaaaaaaaaaaa.eyJ" + strings.Repeat("a", size/2) + "." + tok(53, 20)
	return out
}

// TestRedactLinearTime checks that Redact stays linear on texts built to
// make every trigger read on over the same bytes. Before scanState
// remembered what was read and judged, seven of them took 7 s to 7 min at
// 1 MiB; at the 4 MiB used here (--max-size can be raised, a conversation
// message can be that long) the others took 3 to 5 s, but for BEGIN lines
// one a line (1.3 s: each read at most 64 KiB). There is no portable count
// of work done, so this compares wall times of 256 KiB and 4 MiB: a ratio,
// not an absolute bound, so that a loaded machine does not fail it (an
// absolute 2 s bound did, in CI, at 2.3 s).
func TestRedactLinearTime(t *testing.T) {
	if testing.Short() {
		t.Skip("times Redact on 4 MiB of adversarial text (about 9 s)")
	}
	small, large := adversarial(256<<10), adversarial(4<<20)
	best := func(in string) time.Duration {
		b := time.Duration(1 << 62)
		for range 3 {
			start := time.Now()
			Redact(in)
			b = min(b, time.Since(start))
		}
		return b
	}
	for name := range large {
		s, l := best(small[name]), best(large[name])
		// 16 times the input: linear is about 16 times the time, quadratic
		// 256. Measured here: 3 to 78 times (cache and allocation effects
		// grow with the input); the bound is half the quadratic ratio.
		if ratio := float64(l) / float64(max(s, time.Millisecond)); ratio > 128 {
			t.Errorf("%s: %v for %d bytes, %v for %d: %.0f times as long, want under 128", name, l, len(large[name]), s, len(small[name]), ratio)
		}
	}
}

func FuzzRedact(f *testing.F) {
	for _, c := range secretCases() {
		in, _, _ := c.build()
		f.Add(in)
	}
	for _, s := range lookAlikes {
		f.Add(s)
	}
	for _, s := range adversarial(256) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		out, fs := Redact(in)
		if strings.Count(out, "\n") != strings.Count(in, "\n") {
			t.Fatalf("line count changed: %q -> %q", in, out)
		}
		last := 0
		for _, f := range fs {
			if f.Line < last || f.Line < 1 || f.Line > strings.Count(in, "\n")+1 {
				t.Fatalf("finding lines out of order or range: %+v", fs)
			}
			last = f.Line
			if !strings.Contains(out, Marker(f.Kind)) {
				t.Fatalf("finding %+v has no marker in %q", f, out)
			}
		}
		if len(fs) == 0 && out != in {
			t.Fatalf("changed without findings: %q -> %q", in, out)
		}
	})
}

// BenchmarkRedact runs over real source: $PALACE_BENCH_DIR, else Go's own
// src/net (a few MB of code, tests and testdata). It reports MB/s.
func BenchmarkRedact(b *testing.B) {
	dir := os.Getenv("PALACE_BENCH_DIR")
	if dir == "" {
		goroot, err := exec.Command("go", "env", "GOROOT").Output()
		if err != nil {
			b.Skipf("go env GOROOT: %v (set PALACE_BENCH_DIR)", err)
		}
		dir = filepath.Join(strings.TrimSpace(string(goroot)), "src", "net")
	}
	var texts []string
	var size int64
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		info, err := d.Info()
		if err != nil || info.Size() > 1<<20 {
			return nil
		}
		data, err := os.ReadFile(p)
		if err == nil {
			texts = append(texts, string(data))
			size += int64(len(data))
		}
		return nil
	})
	if size == 0 {
		b.Skipf("no files under %s", dir)
	}
	b.SetBytes(size)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, s := range texts {
			Redact(s)
		}
	}
}

func TestKinds(t *testing.T) {
	if k := Kinds(nil); k == nil || len(k) != 0 {
		t.Errorf("Kinds(nil) = %#v, want an empty list", k)
	}
	fs := []Finding{{Kind: KindGitHub, Line: 2}, {Kind: KindEnvSecret, Line: 2}}
	if k := Kinds(fs); !reflect.DeepEqual(k, []string{KindGitHub, KindEnvSecret}) {
		t.Errorf("Kinds = %v", k)
	}
}
