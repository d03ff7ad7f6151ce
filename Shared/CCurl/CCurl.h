// libcurl (the OpenSSL flavour): its SMTP client, for mail over STARTTLS or TLS with AUTH.
#include <curl/curl.h>

// curl_easy_setopt and curl_easy_getinfo are variadic, which Swift cannot call: one typed door each.
static inline CURLcode kindred_curl_set_long(CURL *curl, CURLoption option, long value) {
    return curl_easy_setopt(curl, option, value);
}

// libcurl copies every string option it is given.
static inline CURLcode kindred_curl_set_string(CURL *curl, CURLoption option, const char *value) {
    return curl_easy_setopt(curl, option, value);
}

static inline CURLcode kindred_curl_set_pointer(CURL *curl, CURLoption option, const void *value) {
    return curl_easy_setopt(curl, option, value);
}

static inline CURLcode kindred_curl_set_read_function(
    CURL *curl, size_t (*function)(char *buffer, size_t size, size_t count, void *context)) {
    return curl_easy_setopt(curl, CURLOPT_READFUNCTION, function);
}

static inline long kindred_curl_response_code(CURL *curl) {
    long code = 0;
    return curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &code) == CURLE_OK ? code : 0;
}
