#pragma once
// The status page (docs/http-service.md#the-status-page): its files, embedded in the binary when it is
// built (cmake/EmbedUi.cmake from app/ui/), and which GET / gets it instead of Connect's ServerInfo.
// Pure: no I/O.
#include <optional>
#include <string_view>
#include <vector>

namespace status_store {

struct ui_file {
  std::string_view name;  // as under app/ui/, e.g. "app.js"
  std::string_view body;
};

/// Every embedded file (defined in the generated source).
const std::vector<ui_file>& ui_files();

struct ui_asset {
  std::string_view body;
  std::string_view content_type;  // by the name's extension, with charset=utf-8
};

/// The embedded file `name` ("index.html", "app.js", "style.css"); nullopt for any other name.
std::optional<ui_asset> find_ui_asset(std::string_view name);

/// Whether GET / with this Accept header gets the page: only when it names text/html itself, with a
/// higher quality than application/json gets from it (named, or through application/* or */*). A
/// browser's navigation does; curl's */*, Connect's clients and fetch()'s default do not, and a tie
/// keeps Connect's JSON.
bool prefers_html(std::string_view accept);

}  // namespace status_store
