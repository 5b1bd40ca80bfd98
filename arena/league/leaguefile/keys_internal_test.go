package leaguefile

import (
	"os"
	"reflect"
	"strings"
	"testing"
)

// Every key is documented: in its flag's help and in docs/leagues.md.
func TestEveryKeyDocumented(t *testing.T) {
	doc, err := os.ReadFile("../../../docs/leagues.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range configKeys() {
		if keyDoc(k) == "" {
			t.Errorf("key %s has no flag help", k)
		}
		for _, want := range []string{"`" + k + "`", "`" + EnvName(k) + "`", "`--" + FlagName(k) + "`"} {
			if !strings.Contains(string(doc), want) {
				t.Errorf("docs/leagues.md does not mention %s", want)
			}
		}
	}
	for _, typ := range []reflect.Type{reflect.TypeOf(Config{}), reflect.TypeOf(AgentConfig{}), reflect.TypeOf(GameConfig{}), reflect.TypeOf(SPRTConfig{})} {
		for i := range typ.NumField() {
			k := typ.Field(i).Tag.Get("mapstructure")
			if !strings.Contains(string(doc), "`"+k+"`") && !strings.Contains(string(doc), "`sprt."+k+"`") {
				t.Errorf("docs/leagues.md does not mention key %s of %s", k, typ.Name())
			}
		}
	}
}
