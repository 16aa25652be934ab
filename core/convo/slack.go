package convo

import (
	"encoding/json"
	"path"
	"regexp"
	"strconv"
	"strings"
	"time"
)

type slackMsg struct {
	Type        string `json:"type"`
	Subtype     string `json:"subtype"`
	User        string `json:"user"`
	Username    string `json:"username"`
	Text        string `json:"text"`
	Ts          string `json:"ts"`
	UserProfile *struct {
		RealName    string `json:"real_name"`
		DisplayName string `json:"display_name"`
		Name        string `json:"name"`
	} `json:"user_profile"`
	BotProfile *struct {
		Name string `json:"name"`
	} `json:"bot_profile"`
	Files []struct {
		Name  string `json:"name"`
		Title string `json:"title"`
	} `json:"files"`
}

type slackUser struct {
	ID       string `json:"id"`
	Name     string `json:"name"`
	RealName string `json:"real_name"`
	Profile  struct {
		RealName    string `json:"real_name"`
		DisplayName string `json:"display_name"`
	} `json:"profile"`
}

// slackSkip are membership notices, not conversation.
var slackSkip = map[string]bool{
	"channel_join": true, "channel_leave": true, "group_join": true, "group_leave": true,
}

// LoadSlackUsers reads a Slack export's users.json into a map from user id
// to the name people see: real_name, else profile.real_name, else
// profile.display_name, else the handle. A truncated file yields the users
// before the break and a *ParseError.
func LoadSlackUsers(data []byte) (map[string]string, error) {
	users := map[string]string{}
	perr := streamArray(FormatSlack, trimBOM(data), func(_ int, raw json.RawMessage) error {
		var u slackUser
		if err := json.Unmarshal(raw, &u); err != nil {
			return err
		}
		if u.ID == "" {
			return nil
		}
		for _, n := range []string{u.RealName, u.Profile.RealName, u.Profile.DisplayName, u.Name} {
			if strings.TrimSpace(n) != "" {
				users[u.ID] = n
				break
			}
		}
		return nil
	})
	if perr != nil {
		return users, perr
	}
	return users, nil
}

// ParseSlackDay parses one daily file of a Slack export
// (<channel>/YYYY-MM-DD.json, an array of messages) into the conversation of
// that channel-day. users maps user ids to names (see LoadSlackUsers); ids
// it lacks fall back to the name the message carries (user_profile, bot
// username) and then to the raw id. Slack has no roles, so every message
// has Role "". Join/leave notices are skipped; files shared without text
// become "[file NAME]". Mentions (<@U123>) are left as exported.
//
// The day in the id is the UTC date of the first message; Parse uses the
// file name's date instead when it has one, as Slack names files in the
// workspace's time zone.
func ParseSlackDay(data []byte, channel string, users map[string]string) (Conversation, error) {
	c := Conversation{Format: FormatSlack, Meta: map[string]string{"channel": channel}}
	perr := streamArray(FormatSlack, trimBOM(data), func(_ int, raw json.RawMessage) error {
		var m slackMsg
		if err := json.Unmarshal(raw, &m); err != nil {
			return err
		}
		if m.Type != "message" || slackSkip[m.Subtype] {
			return nil
		}
		text := m.Text
		for _, f := range m.Files {
			n := f.Name
			if n == "" {
				n = f.Title
			}
			text = joinNonEmpty(text, "[file "+n+"]")
		}
		c.Messages = appendMsg(c.Messages, Message{Speaker: slackSpeaker(m, users), Role: RoleUnknown, Time: slackTime(m.Ts), Text: text})
		return nil
	})
	day := ""
	if len(c.Messages) > 0 && !c.Messages[0].Time.IsZero() {
		day = c.Messages[0].Time.Format(time.DateOnly)
	}
	c.ID = channel + "/" + day
	c.Title = slackTitle(channel, day)
	setMeta(c.Meta, "day", day)
	if perr != nil {
		return c, perr
	}
	return c, nil
}

func slackSpeaker(m slackMsg, users map[string]string) string {
	if n := users[m.User]; n != "" {
		return n
	}
	if p := m.UserProfile; p != nil {
		for _, n := range []string{p.RealName, p.DisplayName, p.Name} {
			if strings.TrimSpace(n) != "" {
				return n
			}
		}
	}
	if m.Username != "" {
		return m.Username
	}
	if m.User != "" {
		return m.User
	}
	if m.BotProfile != nil && m.BotProfile.Name != "" {
		return m.BotProfile.Name
	}
	return "unknown"
}

// slackTime parses ts ("1700000000.000100": seconds and microseconds as a
// string) exactly, without going through a float.
func slackTime(ts string) time.Time {
	sec, frac, _ := strings.Cut(ts, ".")
	s, err := strconv.ParseInt(sec, 10, 64)
	if err != nil || s <= 0 {
		return time.Time{}
	}
	var ns int64
	if frac != "" {
		if len(frac) > 9 {
			frac = frac[:9]
		}
		f, err := strconv.ParseInt(frac, 10, 64)
		if err == nil {
			ns = f
			for i := len(frac); i < 9; i++ {
				ns *= 10
			}
		}
	}
	return time.Unix(s, ns).UTC()
}

// ParseSlackFile parses one channel-day file of a Slack export, taking the
// channel and day from its path (<channel>/YYYY-MM-DD.json) and speaker names
// from users (LoadSlackUsers on the export's users.json; nil keeps ids).
func ParseSlackFile(name string, data []byte, users map[string]string) (Conversation, error) {
	channel, day := slackPathParts(name)
	c, err := ParseSlackDay(data, channel, users)
	if day != "" {
		c.ID = channel + "/" + day
		c.Meta["day"] = day
		c.Title = slackTitle(channel, day)
	}
	return c, err
}

func slackTitle(channel, day string) string {
	return strings.TrimSpace("#" + channel + " " + day)
}

var slackDayFile = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}\.json$`)

// slackMetaFiles are what a Slack export holds at its top beside the
// channel folders: lists of users, channels, DMs and integrations.
var slackMetaFiles = map[string]bool{
	"users.json": true, "channels.json": true, "integration_logs.json": true,
	"dms.json": true, "groups.json": true, "mpims.json": true,
}

// SlackMetadata picks, from the slash-separated paths of a folder's files,
// a Slack export's metadata files: users.json, channels.json,
// integration_logs.json, dms.json, groups.json and mpims.json in a folder
// that also holds day files (<channel>/YYYY-MM-DD.json) and users.json or
// channels.json. They describe the export (users.json gives speakers their
// names) and hold no conversation; anywhere else such a name is an
// ordinary file.
func SlackMetadata(paths []string) map[string]bool {
	days := map[string]bool{}  // folders whose channel folders hold day files
	lists := map[string]bool{} // folders with users.json or channels.json
	for _, p := range paths {
		base := path.Base(p)
		if ch := path.Dir(p); slackDayFile.MatchString(base) && ch != "." {
			days[path.Dir(ch)] = true
		}
		if base == "users.json" || base == "channels.json" {
			lists[path.Dir(p)] = true
		}
	}
	meta := map[string]bool{}
	for _, p := range paths {
		if dir := path.Dir(p); slackMetaFiles[path.Base(p)] && days[dir] && lists[dir] {
			meta[p] = true
		}
	}
	return meta
}

// slackPathParts reads channel and day from an export path
// ".../<channel>/YYYY-MM-DD.json"; day is "" when the name is not dated.
func slackPathParts(name string) (channel, day string) {
	p := strings.ReplaceAll(name, "\\", "/")
	base := path.Base(p)
	channel = path.Base(path.Dir(p))
	if channel == "." || channel == "/" {
		channel = ""
	}
	if slackDayFile.MatchString(base) {
		day = strings.TrimSuffix(base, ".json")
	}
	return channel, day
}
