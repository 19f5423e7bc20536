// libcurl, loaded when the first request is made rather than when the program starts: linked, it
// brings some thirty libraries (TLS, Kerberos, LDAP...) that every run would map and relocate,
// a chart as much as a sync. The option numbers are libcurl's ABI (curl/curl.h), fixed for good.
#include "CLibcurl.h"

#include <dlfcn.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

typedef int64_t curl_off_t_;
typedef int (*setopt_fn)(void *, int, ...);

static struct {
    int (*global_init)(long);
    void *(*easy_init)(void);
    void (*easy_cleanup)(void *);
    void (*easy_reset)(void *);
    setopt_fn easy_setopt;
    int (*easy_perform)(void *);
    const char *(*easy_strerror)(int);
    void *(*slist_append)(void *, const char *);
    void (*slist_free_all)(void *);
} curl;

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static const char *load_failure = "libcurl was not loaded";
static char load_failure_text[512];

enum {
    OPT_URL = 10002, OPT_WRITEFUNCTION = 20011, OPT_WRITEDATA = 10001, OPT_HEADERFUNCTION = 20079,
    OPT_HEADERDATA = 10029, OPT_HTTPHEADER = 10023, OPT_CUSTOMREQUEST = 10036, OPT_POSTFIELDS = 10015,
    OPT_POSTFIELDSIZE_LARGE = 30120, OPT_HTTPGET = 80, OPT_NOBODY = 44, OPT_NOSIGNAL = 99,
    OPT_CONNECTTIMEOUT_MS = 156, OPT_TIMEOUT_MS = 155, OPT_LOW_SPEED_LIMIT = 19, OPT_LOW_SPEED_TIME = 20,
    OPT_NOPROGRESS = 43, OPT_XFERINFOFUNCTION = 20219, OPT_XFERINFODATA = 10057, OPT_ERRORBUFFER = 10010,
    OPT_FOLLOWLOCATION = 52, OPT_PROTOCOLS = 181, OPT_ACCEPT_ENCODING = 10102, OPT_USERAGENT = 10018,
    OPT_SUPPRESS_CONNECT_HEADERS = 265,
    PROTO_HTTP = 1, PROTO_HTTPS = 2, GLOBAL_DEFAULT = 3,
};

static void *symbol(void *library, const char *name, int *missing) {
    void *found = dlsym(library, name);
    if (!found) *missing = 1;
    return found;
}

static void load(void) {
    static const char *const names[] = {
        "libcurl.so.4", "libcurl-gnutls.so.4", "libcurl-nss.so.4", "libcurl.so", "libcurl.4.dylib", "libcurl.dylib",
    };
    void *library = NULL;
    for (size_t i = 0; i < sizeof names / sizeof *names && !library; i++) library = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        snprintf(load_failure_text, sizeof load_failure_text,
                 "libcurl is not installed (Debian: apt install libcurl4): %s", dlerror());
        load_failure = load_failure_text;
        return;
    }
    int missing = 0;
    curl.global_init = (int (*)(long))symbol(library, "curl_global_init", &missing);
    curl.easy_init = (void *(*)(void))symbol(library, "curl_easy_init", &missing);
    curl.easy_cleanup = (void (*)(void *))symbol(library, "curl_easy_cleanup", &missing);
    curl.easy_reset = (void (*)(void *))symbol(library, "curl_easy_reset", &missing);
    curl.easy_setopt = (setopt_fn)symbol(library, "curl_easy_setopt", &missing);
    curl.easy_perform = (int (*)(void *))symbol(library, "curl_easy_perform", &missing);
    curl.easy_strerror = (const char *(*)(int))symbol(library, "curl_easy_strerror", &missing);
    curl.slist_append = (void *(*)(void *, const char *))symbol(library, "curl_slist_append", &missing);
    curl.slist_free_all = (void (*)(void *))symbol(library, "curl_slist_free_all", &missing);
    if (missing) {
        load_failure = "the libcurl found lacks functions this program needs (libcurl 7.32 or later is)";
        return;
    }
    // Not thread-safe before libcurl 7.84, so once, here, before any handle exists.
    if (curl.global_init(GLOBAL_DEFAULT) != 0) {
        load_failure = "libcurl could not start (curl_global_init failed)";
        return;
    }
    load_failure = NULL;
}

// A connection the peer cut raises SIGPIPE on the next write, which would end the program, and
// libcurl does not guard TLS writes (nor the TLS goodbye when a handle is freed) when told to use
// no signals. So SIGPIPE is blocked on this thread around each call into libcurl, and one raised
// meanwhile taken before the mask is restored. (On Apple systems libcurl's sockets never raise it.)
typedef struct { sigset_t previous; } pipe_guard;

static void block_pipe_signal(pipe_guard *guard) {
#ifdef __linux__
    sigset_t pipe_signal;
    sigemptyset(&pipe_signal);
    sigaddset(&pipe_signal, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &pipe_signal, &guard->previous);
#else
    (void)guard;
#endif
}

static void restore_pipe_signal(pipe_guard *guard) {
#ifdef __linux__
    sigset_t pipe_signal;
    sigemptyset(&pipe_signal);
    sigaddset(&pipe_signal, SIGPIPE);
    struct timespec no_wait = {0, 0};
    while (sigtimedwait(&pipe_signal, NULL, &no_wait) == SIGPIPE) {}
    pthread_sigmask(SIG_SETMASK, &guard->previous, NULL);
#else
    (void)guard;
#endif
}

const char *clibcurl_load(void) {
    pthread_once(&load_once, load);
    return load_failure;
}

void *clibcurl_handle_new(void) {
    return clibcurl_load() ? NULL : curl.easy_init();
}

void clibcurl_handle_free(void *handle) {
    if (!handle || clibcurl_load()) return;
    pipe_guard guard;
    block_pipe_signal(&guard);
    curl.easy_cleanup(handle);
    restore_pipe_signal(&guard);
}

static size_t header_line(char *buffer, size_t size, size_t count, void *userdata) {
    const clibcurl_request *request = userdata;
    return request->on_header(request->context, buffer, size * count) ? 0 : size * count;
}

static size_t body_bytes(char *buffer, size_t size, size_t count, void *userdata) {
    const clibcurl_request *request = userdata;
    return request->on_body(request->context, buffer, size * count) ? 0 : size * count;
}

static int progress(void *userdata, curl_off_t_ dltotal, curl_off_t_ dlnow, curl_off_t_ ultotal, curl_off_t_ ulnow) {
    (void)dltotal, (void)dlnow, (void)ultotal, (void)ulnow;
    const clibcurl_request *request = userdata;
    return request->should_stop(request->context);
}

int clibcurl_perform(void *handle, const clibcurl_request *request, char *error) {
    error[0] = 0;
    const char *failure = clibcurl_load();
    if (failure) {
        snprintf(error, 256, "%s", failure);
        return CLIBCURL_NOT_LOADED;
    }
    void *headers = NULL;
    for (size_t i = 0; i < request->header_count; i++) {
        void *longer = curl.slist_append(headers, request->headers[i]);
        if (!longer) {
            curl.slist_free_all(headers);
            snprintf(error, 256, "out of memory for the request's headers");
            return CLIBCURL_WRITE_ERROR;
        }
        headers = longer;
    }
    curl.easy_reset(handle);
    curl.easy_setopt(handle, OPT_ERRORBUFFER, error);
    curl.easy_setopt(handle, OPT_URL, request->url);
    // Only http and https, redirects left to the caller (who decides where credentials may go),
    // no signals (a program with threads), any content coding libcurl can decode.
    curl.easy_setopt(handle, OPT_PROTOCOLS, (long)(PROTO_HTTP | PROTO_HTTPS));
    curl.easy_setopt(handle, OPT_FOLLOWLOCATION, 0L);
    curl.easy_setopt(handle, OPT_NOSIGNAL, 1L);
    curl.easy_setopt(handle, OPT_ACCEPT_ENCODING, "");
    curl.easy_setopt(handle, OPT_USERAGENT, "familytree");
    // Through a proxy, its answer to CONNECT is not the server's.
    curl.easy_setopt(handle, OPT_SUPPRESS_CONNECT_HEADERS, 1L);
    // A body makes libcurl send POST unless the method is set, so any method but a bare GET is.
    if (strcmp(request->method, "GET") == 0 && !request->body) {
        curl.easy_setopt(handle, OPT_HTTPGET, 1L);
    } else if (strcmp(request->method, "HEAD") == 0) {
        curl.easy_setopt(handle, OPT_NOBODY, 1L);
    } else {
        curl.easy_setopt(handle, OPT_CUSTOMREQUEST, request->method);
    }
    if (request->body) {
        curl.easy_setopt(handle, OPT_POSTFIELDSIZE_LARGE, (curl_off_t_)request->body_length);
        curl.easy_setopt(handle, OPT_POSTFIELDS, request->body);
    }
    curl.easy_setopt(handle, OPT_HTTPHEADER, headers);
    curl.easy_setopt(handle, OPT_CONNECTTIMEOUT_MS, request->connect_timeout_ms);
    curl.easy_setopt(handle, OPT_TIMEOUT_MS, request->total_timeout_ms);
    if (request->idle_seconds > 0) {
        curl.easy_setopt(handle, OPT_LOW_SPEED_LIMIT, 1L);
        curl.easy_setopt(handle, OPT_LOW_SPEED_TIME, request->idle_seconds);
    }
    curl.easy_setopt(handle, OPT_HEADERFUNCTION, header_line);
    curl.easy_setopt(handle, OPT_HEADERDATA, (void *)request);
    curl.easy_setopt(handle, OPT_WRITEFUNCTION, body_bytes);
    curl.easy_setopt(handle, OPT_WRITEDATA, (void *)request);
    curl.easy_setopt(handle, OPT_NOPROGRESS, 0L);
    curl.easy_setopt(handle, OPT_XFERINFOFUNCTION, progress);
    curl.easy_setopt(handle, OPT_XFERINFODATA, (void *)request);
    pipe_guard guard;
    block_pipe_signal(&guard);
    int code = curl.easy_perform(handle);
    restore_pipe_signal(&guard);
    // The handle outlives this call; nothing of the request's may stay in it.
    curl.easy_setopt(handle, OPT_HTTPHEADER, (void *)NULL);
    curl.easy_setopt(handle, OPT_ERRORBUFFER, (void *)NULL);
    curl.slist_free_all(headers);
    return code;
}

const char *clibcurl_strerror(int code) {
    if (code == CLIBCURL_NOT_LOADED) return "libcurl could not be loaded";
    return clibcurl_load() ? "libcurl could not be loaded" : curl.easy_strerror(code);
}
