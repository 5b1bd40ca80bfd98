// Package browsertest starts the headless Chromium the viewer's browser
// tests drive: where it is found, and the flags that keep it from talking
// to anything but the page under test.
package browsertest

import (
	"context"
	"fmt"
	"os"
	"os/exec"

	"github.com/chromedp/chromedp"
)

// FindChromium looks for a Chromium to drive: $ARENA_CHROMIUM, then the
// names Debian and others install it under; "" when there is none.
func FindChromium() string {
	if p := os.Getenv("ARENA_CHROMIUM"); p != "" {
		return p
	}
	for _, n := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "headless-shell"} {
		if p, err := exec.LookPath(n); err == nil {
			return p
		}
	}
	return ""
}

// Allocator starts chrome headless, in one process, with a fresh profile
// and its temporary files in profileDir, no background networking, sync,
// updates or first-run pages, in a 1280×900 window.
func Allocator(ctx context.Context, chrome, profileDir string) (context.Context, context.CancelFunc) {
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(chrome),
		chromedp.Flag("headless", true),
		chromedp.Flag("no-sandbox", true),
		chromedp.Flag("disable-gpu", true),
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("no-first-run", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		// Browser, renderer and network in one process, started without
		// a zygote: a browser test's Chromium then took about a fifth less
		// CPU (docs/testing.md), and the pages under test are the
		// viewer's own.
		chromedp.Flag("single-process", true),
		chromedp.Flag("no-zygote", true),
		chromedp.UserDataDir(profileDir),
		// Chromium makes a folder in $TMPDIR for its single-instance
		// socket and leaves it behind when it is killed, as a test's
		// browser is: one stray folder in /tmp per test run. In the
		// profile folder it goes when the test's folder goes.
		chromedp.Env("TMPDIR="+profileDir),
		chromedp.WindowSize(1280, 900),
	)
	return chromedp.NewExecAllocator(ctx, opts...)
}

// Start starts chrome headless (Allocator) in a fresh profile under
// profileDir and returns a browser context to drive it with; the
// browser runs until stop. Steps given their own deadlines must use
// contexts derived from the returned one, so those deadlines do not end
// the browser.
func Start(ctx context.Context, chrome, profileDir string) (b context.Context, stop func(), err error) {
	actx, acancel := Allocator(ctx, chrome, profileDir)
	b, bcancel := chromedp.NewContext(actx)
	stop = func() { bcancel(); acancel() }
	if err := chromedp.Do(b); err != nil {
		stop()
		return nil, nil, fmt.Errorf("starting %s: %w", chrome, err)
	}
	return b, stop, nil
}
