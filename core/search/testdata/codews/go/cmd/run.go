package main

import "example.com/ws/store"

func main() {
	s := &store.Store{}
	// Three searches, one after the other: SearchFTS is cheap.
	_ = s.SearchFTS("alpha")
	_ = s.SearchFTS("beta")
	_ = s.SearchFTS("gamma")
}
