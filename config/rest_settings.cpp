#include "config/rest_settings.hpp"
namespace status_store {
bool is_rest_setting(std::string_view) { return false; }
rest_settings parse_rest_settings(const properties&, std::string_view) { return {}; }
bool basic_auth_accepts(const rest_basic_auth&, std::string_view, std::string_view) { return false; }
std::optional<std::pair<std::string, std::string>> parse_basic_authorization(std::string_view) { return std::nullopt; }
}
