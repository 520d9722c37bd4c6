// PLACEHOLDER pypto-opt (to be written).
int main() { return 2; }
