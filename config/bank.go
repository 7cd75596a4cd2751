package config

import (
	"errors"
	"path/filepath"
	"strings"
)

// Environment variables naming the bank.
const (
	// BankPathEnv names the bank of every command (bank.path).
	BankPathEnv = EnvPrefix + "_BANK_PATH"
	// LegacyBankEnv is the bank's former variable, still read, with a
	// warning, when BankPathEnv is not set.
	LegacyBankEnv = EnvPrefix + "_BANK"
)

// BankFile is the default bank's file name inside the data directory.
const BankFile = "reconstruct/bank.db"

// DefaultBankPath is the per-user bank: $XDG_DATA_HOME/reconstruct/bank.db,
// else ~/.local/share/reconstruct/bank.db. It fails when neither
// XDG_DATA_HOME nor HOME is set.
func DefaultBankPath(getenv func(string) string) (string, error) {
	if d := getenv("XDG_DATA_HOME"); d != "" && filepath.IsAbs(d) {
		return filepath.Join(d, BankFile), nil
	}
	if h := getenv("HOME"); h != "" {
		return filepath.Join(h, ".local", "share", BankFile), nil
	}
	return "", errors.New("no default bank: neither XDG_DATA_HOME nor HOME is set (give --bank or " + BankPathEnv + ")")
}

// BankLocation is where a command's bank is, and what chose it.
type BankLocation struct {
	// Location is the bank: a file path (absolute) for now.
	Location string
	// Source says which setting chose it: "--bank", an environment
	// variable, "<config file>: bank.path" or "default".
	Source string
	// Warning, when set, is to be shown to the user (a deprecated variable).
	Warning string
}

// ResolveBank is the one rule every command uses to find the bank: the flag
// (--bank), then RECONSTRUCT_BANK_PATH, then RECONSTRUCT_BANK (with a
// warning), then the configuration's bank.path when a configuration is
// given (c may be nil), then the per-user default.
func ResolveBank(flag string, getenv func(string) string, c *Config) (BankLocation, error) {
	abs := func(p, source, warning string) (BankLocation, error) {
		if strings.Contains(p, "://") {
			// A database URL (postgres://…) is not a path.
			return BankLocation{Location: p, Source: source, Warning: warning}, nil
		}
		a, err := filepath.Abs(p)
		if err != nil {
			return BankLocation{}, &Error{Key: "bank.path", Msg: err.Error()}
		}
		return BankLocation{Location: a, Source: source, Warning: warning}, nil
	}
	switch {
	case flag != "":
		return abs(flag, "--bank", "")
	case getenv(BankPathEnv) != "":
		return abs(getenv(BankPathEnv), BankPathEnv, "")
	case getenv(LegacyBankEnv) != "":
		return abs(getenv(LegacyBankEnv), LegacyBankEnv, LegacyBankEnv+" is deprecated: set "+BankPathEnv+" instead")
	}
	def, derr := DefaultBankPath(getenv)
	if c != nil && c.Bank.Path != "" && c.Bank.Path != def {
		return abs(c.Bank.Path, c.File+": bank.path", "")
	}
	if derr != nil {
		return BankLocation{}, &Error{Key: "bank.path", Msg: derr.Error()}
	}
	return abs(def, "default", "")
}

// resolveBank sets bank.path to the bank ResolveBank finds for the
// configuration being loaded: Options.Bank or --bank (Flags), then the
// environment's variables (when Options.Env reads them), then bank.path,
// then the per-user default. Where it is not known (no home directory),
// bank.path stays empty and BankLocation says why.
func (c *Config) resolveBank(opts Options, getenv func(string) string) {
	flag := opts.Bank
	if f := opts.Flags["bank.path"]; flag == "" && f != nil && f.Changed {
		flag = f.Value.String()
	}
	env := getenv
	if !opts.Env {
		env = func(k string) string {
			if k == BankPathEnv || k == LegacyBankEnv {
				return ""
			}
			return getenv(k)
		}
	}
	c.bank, c.bankErr = ResolveBank(flag, env, c)
	c.Bank.Path = c.bank.Location
}

// BankLocation is the bank of the run the configuration is for, found
// once as it was loaded (ResolveBank's rule), with the setting that chose
// it and any warning to show; an error when there is none (no home
// directory, and no bank named).
func (c *Config) BankLocation() (BankLocation, error) {
	switch {
	case c.bankErr != nil:
		return BankLocation{}, c.bankErr
	case c.bank.Location == c.Bank.Path && c.Bank.Path != "":
		return c.bank, nil
	case c.Bank.Path != "":
		// A recorded configuration, or the defaults: bank.path as it is.
		return BankLocation{Location: c.Bank.Path, Source: c.File + ": bank.path"}, nil
	}
	return ResolveBank("", func(string) string { return "" }, nil)
}
