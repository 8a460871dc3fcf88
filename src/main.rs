fn main() {
    buildd_mission_control::stopped::tell_when_stopped();
    leptos::mount::mount_to_body(buildd_mission_control::app::App);
}
