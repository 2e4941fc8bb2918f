// The status page's files (app/ui_assets.hpp): embedded at build time from app/ui/ byte for byte, each
// with its type; which Accept header gets the page at GET / (a browser's navigation) and which keeps
// Connect's ServerInfo (curl, Connect's clients, fetch()'s default, a tie); and the page's own rules:
// no inline script, nothing from another origin, no innerHTML.
#include "app/ui_assets.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <regex>
#include <sstream>
#include <string>

using namespace status_store;

namespace {

std::string source_file(const std::string& path) {
  std::ifstream in{std::string{STATUS_STORE_SOURCE_DIR} + "/" + path, std::ios::binary};
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

TEST(UiAssets, EveryFileOfAppUiIsEmbeddedAsItIsWithItsType) {
  for (const auto& [name, type] :
       {std::pair{"index.html", "text/html; charset=utf-8"}, std::pair{"app.js", "text/javascript; charset=utf-8"},
        std::pair{"style.css", "text/css; charset=utf-8"}}) {
    const auto asset = find_ui_asset(name);
    ASSERT_TRUE(asset) << name;
    EXPECT_EQ(asset->content_type, type);
    EXPECT_EQ(asset->body, source_file(std::string{"app/ui/"} + name)) << name;
  }
  EXPECT_FALSE(find_ui_asset("../CMakeLists.txt"));
  EXPECT_FALSE(find_ui_asset(""));
  EXPECT_FALSE(find_ui_asset("index.htm"));
}

TEST(UiAssets, ABrowsersNavigationGetsThePageAndEveryOtherClientConnectsJson) {
  // Chromium's and Firefox's navigation requests.
  EXPECT_TRUE(
      prefers_html("text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,"
                   "image/apng,*/*;q=0.8,application/signed-exchange;v=b3;q=0.7"));
  EXPECT_TRUE(prefers_html("text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"));
  EXPECT_TRUE(prefers_html("TEXT/HTML"));
  EXPECT_TRUE(prefers_html("application/json;q=0.5, text/html"));
  // curl, Connect's clients, fetch() and no header at all.
  for (const char* accept : {"", "*/*", "application/json", "application/json, text/plain, */*", "text/*",
                             "text/html;q=0", "text/html, application/json", "application/json, text/html;q=0.9",
                             "text/html;q=0.5, */*", "text/html;q=nonsense", "text/html;q=1.5", ",,;;", "text/htmlx"})
    EXPECT_FALSE(prefers_html(accept)) << accept;
}

TEST(UiAssets, ThePageRunsNoInlineScriptLoadsNothingFromElsewhereAndWritesNoMarkupFromData) {
  const std::string html{find_ui_asset("index.html")->body};
  const std::string js{find_ui_asset("app.js")->body};
  EXPECT_EQ(std::regex_search(html, std::regex{R"(<script(?![^>]*\bsrc="/ui/app\.js")[^>]*>)"}), false);
  EXPECT_EQ(std::regex_search(html, std::regex{R"(\son[a-z]+=)"}), false);  // no inline handler
  for (const std::string& text : {html, js, std::string{find_ui_asset("style.css")->body}}) {
    EXPECT_EQ(text.find("http://"), std::string::npos);
    EXPECT_EQ(text.find("https://"), std::string::npos);
    EXPECT_EQ(text.find("//cdn"), std::string::npos);
  }
  for (const char* sink : {"innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval(", "new Function"})
    EXPECT_EQ(js.find(sink), std::string::npos) << sink;
}
