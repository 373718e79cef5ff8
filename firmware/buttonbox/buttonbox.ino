// Reference button box for the "Своя игра" scoreboard — docs/LINKS.md, "Button box"; PROTOCOL.md §5.
// Arduino Uno/Nano (ATmega328P). The tests build it with Debian's gcc-avr and the Arduino core and run it in
// simavr (firmware/sim, firmware/README.md). 115200 baud 8N1, ASCII lines ending in '\n', at most 80 bytes.
//
//   box -> board   HELLO name proto=1 players=N      at power-up and in answer to HELLO?
//   box -> board   EV seq t_us PRESS p               button p pressed at box time t_us (micros(), u32, wraps)
//   box -> board   PONG nonce t_us                   answer to PING
//   board -> box   HELLO?  |  ARM  |  DISARM  |  LED p on|off|blink  |  PING nonce
//
// Presses are reported whether or not the box is armed: the board decides false starts (BZ7) and who
// was first (BZ3) from t_us. So t_us must be when the button closed, not when the sketch got round to it:
// a pin-change interrupt stamps every press at its edge (within a few µs) and queues it, and the loop
// prints the queue in that order. Polling instead would stamp a press that comes while an EV or PONG line
// is being formatted (about 0.5 ms) late, and two such presses in pin order rather than time order.
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

// Buttons: shared by the pin-change interrupt and the loop (which touches them with interrupts off).
volatile uint8_t *buttonIn[PLAYERS];         // the pin's input register and bit, looked up once
uint8_t buttonBit[PLAYERS];
volatile bool held[PLAYERS];                 // pressed and not yet released (for DEBOUNCE_US)
volatile bool wasDown[PLAYERS];
volatile unsigned long changedAt[PLAYERS];   // the pin's last edge, bounces included
volatile unsigned long seq = 0;              // counts every press, sent or not: the board logs gaps
bool scanInLoop = false;                     // a button pin has no pin-change interrupt (not on an Uno)

const uint8_t QUEUE = 16;                    // presses stamped, not yet sent (a power of two)
volatile unsigned long queuedAt[QUEUE];
volatile unsigned long queuedSeq[QUEUE];
volatile uint8_t queuedSeat[QUEUE];
volatile uint8_t queueHead = 0;              // written by scanButtons only
uint8_t queueTail = 0;                       // written by the loop only

char line[80];                               // one line from the board: 79 characters, then its newline
uint8_t lineLength = 0;
bool lineTooLong = false;

// Every button, stamped with one clock reading: a press is its first closing edge (no wait for the bounce
// to settle: speed is the point); the release is decided in releaseButtons. Runs with interrupts off.
void scanButtons() {
  unsigned long now = micros();
  for (uint8_t i = 0; i < PLAYERS; i++) {
    bool down = (*buttonIn[i] & buttonBit[i]) == 0;
    if (down != wasDown[i]) {
      wasDown[i] = down;
      changedAt[i] = now;
    }
    if (down && !held[i]) {
      held[i] = true;
      seq++;
      if ((uint8_t)(queueHead - queueTail) < QUEUE) {
        uint8_t slot = queueHead % QUEUE;
        queuedAt[slot] = now;
        queuedSeq[slot] = seq;
        queuedSeat[slot] = i + 1;
        queueHead++;
      }                                      // a full queue drops the press; its seq shows the gap
    }
  }
}

ISR(PCINT0_vect) { scanButtons(); }
ISR(PCINT1_vect, ISR_ALIASOF(PCINT0_vect));
ISR(PCINT2_vect, ISR_ALIASOF(PCINT0_vect));

// A held button is released once its pin has stayed open for DEBOUNCE_US. Interrupts are off only for the
// comparisons (a few µs): a press edge meanwhile waits that long for its stamp.
void releaseButtons() {
  unsigned long now = micros();
  for (uint8_t i = 0; i < PLAYERS; i++) {
    noInterrupts();
    // signed: an edge stamped after `now` was read (the interrupt came in between) is not DEBOUNCE_US old
    if (held[i] && !wasDown[i] && (long)(now - changedAt[i]) >= (long)DEBOUNCE_US) held[i] = false;
    interrupts();
  }
}

void sendHello() {
  Serial.print("HELLO "); Serial.print(BOX_NAME);
  Serial.print(" proto=1 players="); Serial.print(PLAYERS); Serial.print('\n');
}

void setup() {
  for (uint8_t i = 0; i < PLAYERS; i++) {
    pinMode(BUTTON_PIN[i], INPUT_PULLUP);
    pinMode(LAMP_PIN[i], OUTPUT);
    lamp[i] = LAMP_OFF;
  }
  pinMode(ARMED_PIN, OUTPUT);
  // Every pull-up is on before any interrupt is: a scan never sees a pin that is still floating.
  for (uint8_t i = 0; i < PLAYERS; i++) {
    int pin = BUTTON_PIN[i];
    buttonIn[i] = portInputRegister(digitalPinToPort(pin));
    buttonBit[i] = digitalPinToBitMask(pin);
    volatile uint8_t *mask = digitalPinToPCMSK(pin);
    if (mask != 0) {
      *mask |= bit(digitalPinToPCMSKbit(pin));
      PCICR |= bit(digitalPinToPCICRbit(pin));
    } else {
      scanInLoop = true;                     // no pin-change interrupt: the loop scans (stamps within a loop)
    }
  }
  Serial.begin(115200);
  sendHello();                               // power-up HELLO; the board also asks with HELLO?
}

// The queued presses, oldest first.
void sendPresses() {
  while (queueTail != queueHead) {
    uint8_t slot = queueTail % QUEUE;
    unsigned long number = queuedSeq[slot], at = queuedAt[slot];
    uint8_t seat = queuedSeat[slot];
    queueTail++;                             // the slot is free only after it was copied
    Serial.print("EV "); Serial.print(number); Serial.print(' '); Serial.print(at);
    Serial.print(" PRESS "); Serial.print(seat); Serial.print('\n');
  }
}

// A decimal seat 1..PLAYERS and nothing else (as the board's own parser reads numbers); 0 for anything else.
uint8_t parseSeat(const char *text) {
  unsigned int seat = 0;
  if (*text == '\0') return 0;
  for (; *text; text++) {
    if (*text < '0' || *text > '9' || seat > PLAYERS) return 0;
    seat = seat * 10 + (*text - '0');
  }
  return seat >= 1 && seat <= PLAYERS ? seat : 0;
}

// A decimal u32 (as the board's nonces are): up to 10 digits, at most 4294967295.
bool isU32(const char *text) {
  size_t length = strlen(text);
  if (length == 0 || length > 10) return false;
  for (const char *c = text; *c; c++) {
    if (*c < '0' || *c > '9') return false;
  }
  return length < 10 || strcmp(text, "4294967295") <= 0;
}

// One complete line from the board. Unknown or malformed lines are ignored.
void handleLine(char *text) {
  if (strcmp(text, "HELLO?") == 0) {
    sendHello();
  } else if (strcmp(text, "ARM") == 0) {
    digitalWrite(ARMED_PIN, HIGH);
  } else if (strcmp(text, "DISARM") == 0) {
    digitalWrite(ARMED_PIN, LOW);
  } else if (strncmp(text, "PING ", 5) == 0 && isU32(text + 5)) {   // so the PONG is a well-formed line
    unsigned long now = micros();           // read first: the board pairs it with the round trip's middle
    Serial.print("PONG "); Serial.print(text + 5); Serial.print(' '); Serial.print(now); Serial.print('\n');
  } else if (strncmp(text, "LED ", 4) == 0) {
    char *mode = strchr(text + 4, ' ');
    if (mode == NULL) return;
    *mode++ = '\0';
    uint8_t p = parseSeat(text + 4);
    if (p == 0) return;
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
  if (scanInLoop) {
    noInterrupts();
    scanButtons();
    interrupts();
  }
  releaseButtons();
  sendPresses();
  readBoard();
  showLamps();
}
