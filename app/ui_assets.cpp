#include "app/ui_assets.hpp"

#include "config/ascii.hpp"

#include <charconv>
#include <string>

namespace status_store {

namespace {

std::string_view trim(std::string_view s) {
  const auto first = s.find_first_not_of(" \t");
  if (first == std::string_view::npos) return {};
  return s.substr(first, s.find_last_not_of(" \t") - first + 1);
}

/// A media range's quality: its q parameter, 1 without one, 0 when q is not a number in [0, 1].
double quality(std::string_view params) {
  if (params.empty()) return 1;
  for (size_t at = 0; at != std::string_view::npos;) {
    const size_t next = params.find(';', at + 1);
    const std::string_view param = trim(params.substr(at + 1, next == std::string_view::npos ? next : next - at - 1));
    at = next;
    if (param.size() < 2 || (param[0] != 'q' && param[0] != 'Q') || param[1] != '=') continue;
    double q = 0;
    const auto value = param.substr(2);
    const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), q);
    return ec == std::errc{} && end == value.data() + value.size() && q >= 0 && q <= 1 ? q : 0;
  }
  return 1;
}

/// The quality `accept` gives `type/subtype`: from its most specific matching range; -1 when none
/// matches. `named`: whether the exact type was listed.
double quality_of(std::string_view accept, std::string_view type, std::string_view subtype, bool* named = nullptr) {
  double exact = -1, any_subtype = -1, any = -1;
  for (size_t begin = 0; begin <= accept.size();) {
    const size_t comma = std::min(accept.find(',', begin), accept.size());
    const std::string_view range = trim(accept.substr(begin, comma - begin));
    begin = comma + 1;
    const size_t semi = range.find(';');
    const std::string media = ascii_lowercase(trim(range.substr(0, semi)));
    const double q = quality(semi == std::string_view::npos ? std::string_view{} : range.substr(semi));
    if (media == std::string{type} + "/" + std::string{subtype})
      exact = std::max(exact, q);
    else if (media == std::string{type} + "/*")
      any_subtype = std::max(any_subtype, q);
    else if (media == "*/*")
      any = std::max(any, q);
  }
  if (named != nullptr) *named = exact >= 0;
  return exact >= 0 ? exact : any_subtype >= 0 ? any_subtype : any;
}

bool ends_with(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

}  // namespace

std::optional<ui_asset> find_ui_asset(std::string_view name) {
  for (const auto& f : ui_files()) {
    if (f.name != name) continue;
    const std::string_view type = ends_with(name, ".html")  ? "text/html; charset=utf-8"
                                  : ends_with(name, ".js")  ? "text/javascript; charset=utf-8"
                                  : ends_with(name, ".css") ? "text/css; charset=utf-8"
                                                            : "application/octet-stream";
    return ui_asset{f.body, type};
  }
  return std::nullopt;
}

bool prefers_html(std::string_view accept) {
  bool named = false;
  const double html = quality_of(accept, "text", "html", &named);
  return named && html > 0 && html > quality_of(accept, "application", "json");
}

}  // namespace status_store
