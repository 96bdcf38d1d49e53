// The wrappers are all static inline in the header; this file gives SwiftPM a source to build.
#include "CCurlShim.h"
