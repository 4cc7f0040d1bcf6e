package main

import (
	"fmt"
	"slices"
	"strconv"
	"unicode/utf8"

	"github.com/adcpgen/adcpgen/runtime/adcperr"
	"github.com/adcpgen/adcpgen/runtime/registry"
	"github.com/adcpgen/adcpgen/runtime/wire"
)

// Native in-feed creatives. This seller's native_in_feed format is a
// content-recommendation unit: a title of at most 80 characters, a main
// image of 1200x627 or 1080x1080, and a call to action from a closed
// list. A creative that breaks one is refused before anything is synced
// (validation_mode strict, the default: the whole sync fails on the first
// violation), or alone (lenient).

// nativeFormat is the id of the seller's native in-feed format (a 3.2
// creative of format_kind native_in_feed reaches the handlers as
// canonical_native_in_feed).
const nativeFormat = "native_in_feed"

const nativeTitleMaxChars = 80

var (
	nativeImageSizes = [][2]int{{1200, 627}, {1080, 1080}}
	nativeCTAValues  = []string{"LEARN_MORE", "SHOP_NOW", "SIGN_UP", "BUY_NOW", "DOWNLOAD", "CONTACT_US", "GET_OFFER", "BOOK_NOW", "SUBSCRIBE", "WATCH_MORE"}
)

// nativeViolation is what is wrong with creative i's assets (JSON) under
// the native_in_feed constraints, nil when nothing is.
func nativeViolation(i int, assets wire.Lenient) *adcperr.Error {
	at := func(name string) string { return fmt.Sprintf("creatives[%d].assets.%s", i, name) }
	if title, ok := assets.Get("title").Get("content").AsString(); ok && utf8.RuneCountInString(title) > nativeTitleMaxChars {
		return &adcperr.Error{Code: "VALIDATION_ERROR", Field: at("title"),
			Message: "The title has " + strconv.Itoa(utf8.RuneCountInString(title)) + " characters; native_in_feed allows " + strconv.Itoa(nativeTitleMaxChars)}
	}
	if img := assets.Get("main_image"); img.Present() {
		w, _ := img.Get("width").Number()
		h, _ := img.Get("height").Number()
		if !slices.Contains(nativeImageSizes, [2]int{int(w), int(h)}) {
			return &adcperr.Error{Code: "VALIDATION_ERROR", Field: at("main_image"),
				Message: fmt.Sprintf("The main image is %gx%g; native_in_feed takes 1200x627 or 1080x1080", w, h)}
		}
	}
	if cta, ok := assets.Get("cta").Get("content").AsString(); ok && !slices.Contains(nativeCTAValues, cta) {
		return &adcperr.Error{Code: "CREATIVE_VALUE_NOT_ALLOWED", Recovery: registry.Recovery("correctable"), Field: at("cta"),
			Message: "The call to action " + strconv.Quote(cta) + " is not one of native_in_feed's: " + fmt.Sprint(nativeCTAValues)}
	}
	return nil
}
