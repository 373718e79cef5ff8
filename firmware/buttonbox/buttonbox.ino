// Reference button box for the "Своя игра" scoreboard — docs/LINKS.md, "Button box".
// Arduino Uno/Nano (or any board with Serial and micros()). Not compiled in CI: keep it small and
// matching the protocol line for line. 115200 baud 8N1, ASCII lines ending in '\n', at most 80 bytes.
//
//   box -> board   HELLO name proto=1 players=N      at power-up and in answer to HELLO?
//   box -> board   EV seq t_us PRESS p               button p pressed at box time t_us (micros(), u32, wraps)
//   box -> board   PONG nonce t_us                   answer to PING
//   board -> box   HELLO?  |  ARM  |  DISARM  |  LED p on|off|blink  |  PING nonce
//
// Presses are reported whether or not the box is armed: the board decides false starts (BZ7) and who
// was first (BZ3) from t_us. Presses are sent in the order they were seen, which is time order.
// Wiring: button p between BUTTON_PIN[p-1] and GND (internal pull-up); lamp p on LAMP_PIN[p-1];
// the "live" lamp on ARMED_PIN.

const char BOX_NAME[] = "clubbox";           // one word, no spaces
const uint8_t PLAYERS = 4;
const uint8_t BUTTON_PIN[PLAYERS] = {2, 3, 4, 5};
const uint8_t LAMP_PIN[PLAYERS] = {8, 9, 10, 11};
const uint8_t ARMED_PIN = 13;
const unsigned long DEBOUNCE_US = 20000;     // a button must stay released this long before it can press again

enum Lamp : uint8_t { LAMP_OFF, LAMP_ON, LAMP_BLINK };
Lamp lamp[PLAYERS];
bool held[PLAYERS];                          // pressed and not yet released
unsigned long releasedAt[PLAYERS];
unsigned long seq = 0;                       // counts every EV line; the board logs gaps
char line[81];                               // one line from the board (80 bytes + NUL)
uint8_t lineLength = 0;
bool lineTooLong = false;

void sendHello() {
  Serial.print("HELLO "); Serial.print(BOX_NAME);
  Serial.print(" proto=1 players="); Serial.print(PLAYERS); Serial.print('\n');
}

void setup() {
  for (uint8_t i = 0; i < PLAYERS; i++) {
    pinMode(BUTTON_PIN[i], INPUT_PULLUP);
    pinMode(LAMP_PIN[i], OUTPUT);
    lamp[i] = LAMP_OFF;
    held[i] = false;
    releasedAt[i] = 0;
  }
  pinMode(ARMED_PIN, OUTPUT);
  Serial.begin(115200);
  sendHello();                               // power-up HELLO; the board also asks with HELLO?
}

// Scan every button; the time is read right at the pin read, so two presses microseconds apart keep
// their order and spacing.
void scanButtons() {
  for (uint8_t i = 0; i < PLAYERS; i++) {
    unsigned long now = micros();
    bool down = digitalRead(BUTTON_PIN[i]) == LOW;
    if (down && !held[i] && now - releasedAt[i] >= DEBOUNCE_US) {
      held[i] = true;
      seq++;
      Serial.print("EV "); Serial.print(seq); Serial.print(' '); Serial.print(now);
      Serial.print(" PRESS "); Serial.print(i + 1); Serial.print('\n');
    } else if (!down && held[i]) {
      held[i] = false;
      releasedAt[i] = now;
    }
  }
}

// One complete line from the board. Unknown or malformed lines are ignored.
void handleLine(char *text) {
  if (strcmp(text, "HELLO?") == 0) {
    sendHello();
  } else if (strcmp(text, "ARM") == 0) {
    digitalWrite(ARMED_PIN, HIGH);
  } else if (strcmp(text, "DISARM") == 0) {
    digitalWrite(ARMED_PIN, LOW);
  } else if (strncmp(text, "PING ", 5) == 0) {
    unsigned long now = micros();           // read first: the board pairs it with the round trip's middle
    Serial.print("PONG "); Serial.print(text + 5); Serial.print(' '); Serial.print(now); Serial.print('\n');
  } else if (strncmp(text, "LED ", 4) == 0) {
    char *mode = strchr(text + 4, ' ');
    if (mode == NULL) return;
    *mode++ = '\0';
    int p = atoi(text + 4);
    if (p < 1 || p > PLAYERS) return;
    if (strcmp(mode, "on") == 0) lamp[p - 1] = LAMP_ON;
    else if (strcmp(mode, "off") == 0) lamp[p - 1] = LAMP_OFF;
    else if (strcmp(mode, "blink") == 0) lamp[p - 1] = LAMP_BLINK;
  }
}

void readBoard() {
  while (Serial.available() > 0) {
    char c = Serial.read();
    if (c == '\n') {
      line[lineLength] = '\0';
      if (!lineTooLong) handleLine(line);
      lineLength = 0;
      lineTooLong = false;
    } else if (c != '\r') {
      if (lineLength < sizeof(line) - 1) line[lineLength++] = c;
      else lineTooLong = true;              // drop the whole over-long line
    }
  }
}

void showLamps() {
  bool blinkPhase = (millis() / 250) % 2;
  for (uint8_t i = 0; i < PLAYERS; i++) {
    digitalWrite(LAMP_PIN[i], lamp[i] == LAMP_ON || (lamp[i] == LAMP_BLINK && blinkPhase) ? HIGH : LOW);
  }
}

void loop() {
  scanButtons();                             // first and often: the scan loop is the timing resolution
  readBoard();
  showLamps();
}
